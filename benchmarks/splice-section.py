#!/usr/bin/env python3
"""Replaces the text between <!-- NAME:begin ... --> and <!-- NAME:end --> in a markdown file.

Usage: splice-section.py NAME SECTION_FILE DOC. The markers stay; a missing pair is an error, so a
script never writes its results somewhere nobody reads them.
"""
import re
import sys

name, section_file, doc = sys.argv[1:4]
with open(section_file, encoding="utf-8") as f:
    section = f.read().rstrip() + "\n"
with open(doc, encoding="utf-8") as f:
    text = f.read()
pattern = re.compile(r"(<!-- %s:begin[^>]*-->\n).*?(<!-- %s:end -->)" % (name, name), re.S)
if not pattern.search(text):
    sys.exit("%s: no <!-- %s:begin --> ... <!-- %s:end --> markers" % (doc, name, name))
text = pattern.sub(lambda m: m.group(1) + "\n" + section + "\n" + m.group(2), text, count=1)
with open(doc, "w", encoding="utf-8") as f:
    f.write(text)
