#!/usr/bin/env python3
"""Checks that every spec citation in Sources/ resolves in the DocC catalogue.

Two documents are cited. The capture rules (`CaptureRules.md`): `spec §3.2`, `spec §3.2 rule 24`,
`spec §13 N18`, `spec §10 step 1`, and string literals that start with `§` (the sections that
traces and rule records name at run time). The colour-science reference (`ColorScience.md`):
`color-science spec §3.4`, `colour-science spec §3.2`, `colour spec §1.5`. A `§` reference
chained to a citation (`spec §2.7, §3.1, §13 N3`, `spec §8 [O], §13 N13`) cites the same
document. Other documents (`PNG spec §11.2.4`, `CIE 15:2018 §7.1`, `RFC 1951 §3.2.7`) are not
ours to check.

A section resolves when the article has a heading whose text starts with its number
(`#### 3.2 capturePhoto(with:delegate:)`); a rule, item or step resolves when the section's text,
up to the next heading of the same or a higher level, has its bold label (`**Rule 24**`,
`**N18**`, `**Step 1**`).

Usage: tools/check-spec-citations.py [REPOSITORY]. Prints each dangling citation as
`file:line: …` and exits 1 if there is any.
"""
import os
import re
import sys

CATALOGUE = "Sources/Obscura/Obscura.docc"
ARTICLES = {"capture": "CaptureRules.md", "colour": "ColorScience.md"}
# One reference: a section number, then optionally a rule, a step or an N-item.
REF = r"§(\d+(?:\.\d+)*)(?:\s+(rule|step)\s+(\d+)|\s+(N\d+))?"
# The words before "spec" that name the colour-science reference, or a document not ours.
COLOUR = re.compile(r"(?:colou?r-science|colou?r)\s+spec\s$")
FOREIGN = re.compile(r"(?:PNG|png)\s+spec\s$")
# What may stand between two chained references: tags in brackets, then a separator.
CHAIN_GAP = re.compile(r"^(?:\s*\[[^\]]*\])*\s*(?:,|/|;|and)\s*(?:\[[^\]]*\]\s*)*$")


def citations(text):
    """Yields (line, document, section, label) for each spec citation in a source file's text."""
    for number, line in enumerate(text.splitlines(), start=1):
        chained_end, chained_document = None, None
        for match in re.finditer(REF, line):
            before = line[: match.start()]
            document = None
            if before.endswith('"'):
                document = "capture"
            elif before.endswith("spec "):
                if COLOUR.search(before):
                    document = "colour"
                elif not FOREIGN.search(before):
                    document = "capture"
            elif chained_end is not None and CHAIN_GAP.match(line[chained_end : match.start()]):
                document = chained_document
            if document is None:
                chained_end, chained_document = None, None
                continue
            chained_end, chained_document = match.end(), document
            section, word, item, n_item = match.groups()
            label = None
            if item:
                label = f"{word.capitalize()} {item}"
            elif n_item:
                label = n_item
            yield number, document, section, label


def sections(article):
    """Maps each section number to the text it owns, from its heading to the next of its level or higher."""
    lines = article.splitlines()
    headings = []
    for index, line in enumerate(lines):
        match = re.match(r"^(#{2,6})\s+(\d+(?:\.\d+)*)\s", line)
        if match:
            headings.append((index, len(match.group(1)), match.group(2)))
    owned = {}
    for position, (index, level, section) in enumerate(headings):
        end = len(lines)
        for later_index, later_level, _ in headings[position + 1 :]:
            if later_level <= level:
                end = later_index
                break
        owned[section] = "\n".join(lines[index:end])
    return owned


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    owned = {}
    for document, name in ARTICLES.items():
        with open(os.path.join(root, CATALOGUE, name), encoding="utf-8") as handle:
            owned[document] = sections(handle.read())
    problems = []
    count = 0
    for directory, _, files in os.walk(os.path.join(root, "Sources")):
        for name in sorted(files):
            if not name.endswith((".swift", ".c", ".h")):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            for line, document, section, label in citations(text):
                count += 1
                where = f"{os.path.relpath(path, root)}:{line}"
                article = f"{CATALOGUE}/{ARTICLES[document]}"
                if section not in owned[document]:
                    problems.append(f"{where}: §{section} has no heading in {article}")
                elif label and f"**{label}**" not in owned[document][section]:
                    problems.append(f"{where}: §{section} has no **{label}** in {article}")
    for problem in problems:
        print(problem)
    print(f"{count} citations checked, {len(problems)} dangling")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
