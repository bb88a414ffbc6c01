#!/usr/bin/env python3
"""Walks every example survey in four languages against a `survey` binary (each page, a junk
answer, an empty answer, the scripted answers, the review and answers pages) and writes the
pages with tokens and run ids blanked, so two builds can be compared byte for byte:

    scripts/compare-pages.py OLD/survey 18701 /tmp/old.txt
    scripts/compare-pages.py .build/debug/survey 18702 /tmp/new.txt
    diff <(sed 's/1870[12]/PORT/' /tmp/old.txt) <(sed 's/1870[12]/PORT/' /tmp/new.txt)
"""
import json, os, re, subprocess, sys, tempfile, time, urllib.request, pathlib
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / 'Tests/e2e'))
from survey_http import Http, controls_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
def normalize(body: bytes) -> str:
    text = body.decode('utf-8', 'replace')
    text = re.sub(r'value="[A-Za-z0-9_.~=-]{16,}"', 'value="TOKEN"', text)
    text = re.sub(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', 'UUID', text, flags=re.I)
    return text

def walk(base, out):
    for survey in sorted((ROOT / 'Examples').glob('*.json')):
        definition = json.loads(survey.read_text())
        sid = definition.get('identifier') or definition['id']   # a FHIR Questionnaire has an id
        fixture = ROOT / 'Tests/Fixtures' / (survey.stem + '.answers.json')
        answers = json.loads(fixture.read_text()) if fixture.exists() else {}
        for lang in ['en', 'es', 'de-DE', 'en-US']:
            http = Http(base)
            http.opener.addheaders = [('Accept-Language', lang)]
            status, body, url = http.get(f'/surveys/{sid}')
            n = 0
            out.append(f'== {sid} {lang} GET {status}\n' + normalize(body))
            while n < 60 and b'name="_action"' in body:
                n += 1
                form = controls_of(body)
                junk = {name: 'zzz' for name in form.controls if not name.endswith('.dontKnow')}
                s2, b2, _ = http.post_form(body, url, junk)
                out.append(f'-- junk {s2}\n' + normalize(b2))
                s3, b3, _ = http.post_form(body, url, {})
                out.append(f'-- empty {s3}\n' + normalize(b3))
                # the scripted answers for this page's step, where the fixture has them
                fields = {}
                for step, values in answers.items():
                    if any(name in form.controls or name.split('.')[0] in {c.split('.')[0] for c in form.controls} for name in values):
                        fields.update({k: v for k, v in values.items()})
                status, body2, url2 = http.post_form(body, url, fields)
                if status == 422 or body2 == body:
                    status, body2, url2 = http.post_form(body, url, {}, action='skip')
                if status == 422:
                    out.append(f'-- stuck {status}\n' + normalize(body2)); break
                body, url = body2, url2
                out.append(f'-- next {status} {url2}\n' + normalize(body))
            s, b, _ = http.get(f'/surveys/{sid}/answers')
            out.append(f'-- answers {s}\n' + normalize(b))

def run(binary, port, outfile):
    data = tempfile.mkdtemp(prefix='compare-pages-')

    env = dict(os.environ, SURVEY_SECRET='x' * 40)
    proc = subprocess.Popen([binary, 'serve', '--port', str(port), '--data', data, '--no-access-log',
                             '--templates', str(ROOT / 'Templates'), '--public', str(ROOT / 'Public'), '--surveys', str(ROOT / 'Examples')],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f'http://127.0.0.1:{port}'
    for _ in range(100):
        try:
            urllib.request.urlopen(base + '/health', timeout=1); break
        except Exception: time.sleep(0.2)
    out = []
    try:
        walk(base, out)
    finally:
        proc.terminate(); proc.wait()
    pathlib.Path(outfile).write_text('\n'.join(out))

run(sys.argv[1], int(sys.argv[2]), sys.argv[3])
