"""Writes the .xlsx test fixtures into Tests/XLSXTests/Fixtures.

Run with a Python that has openpyxl:  /tmp/xlsx-venv/bin/python Scripts/make_fixtures.py
"""
import os
import zipfile
import xml.etree.ElementTree as ET

from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "XLSXTests", "Fixtures")
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"


def xlsform():
    """A small XLSForm written by openpyxl: shared strings, gaps, numbers, booleans, rich text."""
    wb = Workbook()
    survey = wb.active
    survey.title = "survey"
    survey.append(["type", "name", "label", "label::Arabic (ar)", "required", "hint"])
    survey.append(["text", "name", "Élève âgé ?", "ما اسمك؟", True])
    # Row 3 is left empty on purpose.
    survey["A4"] = "integer"
    survey["B4"] = "age"
    survey["D4"] = "كم عمرك؟"  # C4 is a gap
    survey["E4"] = False
    survey["F4"] = CellRichText(["Whole ", TextBlock(InlineFont(b=True), "years"), " only"])
    survey["A5"] = "decimal"
    survey["B5"] = 2.5
    survey["C5"] = 1.0
    survey["D5"] = 42
    survey["E5"] = "  padded  "
    survey["F5"] = "=1+2"  # formula with no cached value
    choices = wb.create_sheet("choices")
    choices.append(["list_name", "name", "label"])
    choices.append(["yes_no", "yes", "Oui"])
    choices.append(["yes_no", "no", "Non"])
    choices["A5"] = "colors"  # row 4 empty
    choices["B5"] = "red"
    choices["C5"] = "Rouge ❤"
    settings = wb.create_sheet("settings")
    settings.append(["form_title", "form_id", "version"])
    settings.append(["Enquête", "survey_1", 2024010101])
    wb.save(os.path.join(OUT, "xlsform.xlsx"))


def to_shared_strings(source, target):
    """Rewrites openpyxl's inline strings as a shared string table, the way Excel saves text."""
    ET.register_namespace("", MAIN)
    table = []
    with zipfile.ZipFile(os.path.join(OUT, source)) as zin, \
            zipfile.ZipFile(os.path.join(OUT, target), "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                root = ET.fromstring(data)
                for cell in root.iter(f"{{{MAIN}}}c"):
                    inline = cell.find(f"{{{MAIN}}}is")
                    if cell.get("t") == "inlineStr" and inline is not None:
                        cell.remove(inline)
                        inline.tag = f"{{{MAIN}}}si"
                        table.append(inline)
                        cell.set("t", "s")
                        ET.SubElement(cell, f"{{{MAIN}}}v").text = str(len(table) - 1)
                data = ET.tostring(root, encoding="UTF-8", xml_declaration=True)
            elif item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", f'<Relationship Id="rId9" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>'.encode())
            elif item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                                    b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
            zout.writestr(item, data)
        sst = ET.Element(f"{{{MAIN}}}sst", count=str(len(table)), uniqueCount=str(len(table)))
        sst.extend(table)
        zout.writestr("xl/sharedStrings.xml", ET.tostring(sst, encoding="UTF-8", xml_declaration=True))


def package(name, sheets, workbook_rels=None, extra=None):
    """Writes a minimal workbook by hand. `sheets` is a list of (name, rId, target, xml)."""
    with zipfile.ZipFile(os.path.join(OUT, name), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{PKG}"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        entries = "".join(f'<sheet name="{n}" sheetId="{i + 1}" r:id="{rid}"/>' for i, (n, rid, _, _) in enumerate(sheets))
        z.writestr("xl/workbook.xml", f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{REL}"><sheets>{entries}</sheets></workbook>')
        rels = "".join(f'<Relationship Id="{rid}" Type="{REL}/worksheet" Target="{t}"/>' for _, rid, t, _ in sheets)
        z.writestr("xl/_rels/workbook.xml.rels", workbook_rels or f'<Relationships xmlns="{PKG}">{rels}</Relationships>')
        for _, _, target, xml in sheets:
            path = target[1:] if target.startswith("/") else os.path.normpath("xl/" + target)
            z.writestr(path, xml)
        for path, data in (extra or {}).items():
            z.writestr(path, data)


def sheet(rows):
    return f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'


def handmade():
    """Cell kinds openpyxl does not write: inline strings, str/e types, odd numbers, no refs."""
    first = sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t xml:space="preserve"> lead</t></is></c>'
        '<c r="C1" t="inlineStr"><is><r><t>Ri</t></r><r><rPr><b/></rPr><t>ch</t></r>'
        '<rPh sb="0" eb="1"><t>IGNORED</t></rPh></is></c>'
        '<c r="D1" t="str"><f>UPPER("x")</f><v>X</v></c><c r="E1" t="e"><v>#DIV/0!</v></c></row>'
        '<row r="2"><c r="A2"><v>1.0</v></c><c r="B2"><v>3</v></c><c r="C2"><v>0.30000000000000004</v></c>'
        '<c r="D2"><v>1E3</v></c><c r="E2"><v>-2.50</v></c><c r="F2" t="b"><v>1</v></c>'
        '<c r="G2" s="1"/><c r="H2" t="inlineStr"><is><t></t></is></c></row>'
        '<row><c><v>7</v></c><c/><c t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c></row>'
        '<row r="6"><c r="B6" t="s"><v>1</v></c></row>'
    )
    second = sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>')
    strings = (f'<sst xmlns="{MAIN}"><si><t>first &amp; only</t></si>'
               '<si><r><t xml:space="preserve">two </t></r><r><t>runs</t></r></si></sst>')
    package("handmade.xlsx", [("Second", "rId7", "/xl/worksheets/sheet2.xml", second),
                              ("First", "rId3", "worksheets/./sheet1.xml", first)],
            extra={"xl/sharedStrings.xml": strings})


def broken():
    """Files that must be refused."""
    with zipfile.ZipFile(os.path.join(OUT, "no_workbook.xlsx"), "w") as z:
        z.writestr("hello.txt", "not a workbook")
    package("malformed.xlsx", [("s", "rId1", "worksheets/sheet1.xml", sheet('<row r="1"><c r="A1"><v>1</v></row>'))])
    laughs = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
              '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
              f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>')
    package("doctype.xlsx", [("s", "rId1", "worksheets/sheet1.xml", laughs)])
    padding = " " * (51 * 1024 * 1024)
    package("big_part.xlsx", [("s", "rId1", "worksheets/sheet1.xml", sheet(padding))])
    lie_about_size("big_part.xlsx", "lying_size.xlsx", "xl/worksheets/sheet1.xml")
    # 1,001 rows with one cell in column ALL (the 1,000th): over a million cells once gaps are filled.
    sparse = "".join(f'<row r="{r}"><c r="ALL{r}"><v>1</v></c></row>' for r in range(1, 1002))
    package("many_cells.xlsx", [("s", "rId1", "worksheets/sheet1.xml", sheet(sparse))])


def lie_about_size(source, target, member):
    """Copies a ZIP, rewriting `member`'s recorded uncompressed size to 1 KB in both of its headers."""
    data = bytearray(open(os.path.join(OUT, source), "rb").read())
    name = member.encode()
    for signature, size_offset, name_offset in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = data.find(signature)
        while start >= 0:
            if data[start + name_offset:start + name_offset + len(name)] == name:
                data[start + size_offset:start + size_offset + 4] = (1024).to_bytes(4, "little")
            start = data.find(signature, start + 4)
    open(os.path.join(OUT, target), "wb").write(bytes(data))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    xlsform()
    to_shared_strings("xlsform.xlsx", "xlsform_shared.xlsx")
    handmade()
    broken()
