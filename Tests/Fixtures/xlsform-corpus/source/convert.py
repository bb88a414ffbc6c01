import csv, re, sys, io
from openpyxl import Workbook
from pyxform.xls2json_backends import md_table_to_workbook

def write(sheets, out):
    wb = Workbook(); wb.remove(wb.active)
    for name, rows in sheets:
        ws = wb.create_sheet(title=name)
        for r in rows:
            ws.append([c if c not in ("", None) else None for c in r])
    wb.save(out)

def from_csv(path, out):
    text = open(path, encoding="utf-8", newline="").read()
    sheets = []
    for row in csv.reader(io.StringIO(text, newline="")):
        if not row: continue
        if row[0].strip():
            sheets.append([row[0].strip(), []])
            content = row[1:]
        else:
            content = row[1:]
        if any(c.strip() for c in content) and sheets:
            # drop trailing empty cells only
            while content and content[-1] == "": content.pop()
            sheets[-1][1].append(content)
    write(sheets, out)
    return [s[0] for s in sheets]

PIPE = re.compile(r"(?<!\\)\|")
def cells(line):
    s = line.strip()
    inner = s[1:-1] if s.endswith("|") else s[1:]
    return [c.strip().replace(r"\|", "|") for c in PIPE.split(inner)]

EMPH = re.compile(r"^\*\*(.*)\*\*$|^<strong>(.*)</strong>$")
def unemph(c):
    m = EMPH.match(c)
    return (m.group(1) or m.group(2)) if m else c

def from_footer_md(path, out):
    """Docs style: header row, --- separator, data rows, optional ==== row,
    then a row whose first cell is the sheet name."""
    tables, cur = [], []
    for line in open(path, encoding="utf-8").read().split("\n"):
        if line.strip().startswith("|"):
            cur.append(cells(line))
        elif cur:
            tables.append(cur); cur = []
    if cur: tables.append(cur)
    sheets = []
    for t in tables:
        rows = [r for r in t if not all(re.fullmatch(r":?-+:?", c) for c in r if c)]
        name = rows[-1][0]; rows = rows[:-1]
        if rows and all(re.fullmatch(r"=+", c) or c == "" for c in rows[-1]):
            rows = rows[:-1]
        rows = [[unemph(c) for c in r] for r in rows]
        for r in rows:
            while r and r[-1] == "": r.pop()
        sheets.append((name, rows))
    write(sheets, out)
    return [s[0] for s in sheets]

def from_pyxform_md(path, out):
    wb = md_table_to_workbook(open(path, encoding="utf-8").read())
    wb.save(out)
    return wb.sheetnames

if __name__ == "__main__":
    mode, src, out = sys.argv[1:4]
    f = {"csv": from_csv, "md": from_pyxform_md, "footer": from_footer_md}[mode]
    print(out, f(src, out))
