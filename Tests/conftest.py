"""Puts Tests/ on the import path, so that every Python suite (cli, schema, e2e, hostile, docker)
shares the one helper package: `from support import Server, parse_form, Http`."""
import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
