#!/usr/bin/env python3
"""Check that the repository's Markdown pages point only at files that exist.

    scripts/check-links.py [FILE.md ...]      (default: every tracked *.md file)

Checks, in each page:
- Markdown links `[text](target)` that are not URLs or anchors: resolved against the page's
  folder (then against the repository root), the `#anchor` part dropped;
- repository paths written out in the text (`docs/limits.md`, `crates/chip/src/threads.rs`,
  `scripts/test.sh`, ...): a word that starts with one of the repository's top-level folders
  and names no placeholder (`NAME.cpp`, `DIR/...`, `*.tsx`, `pattern1..8`) must exist from the
  root. A path whose folder does not exist here names a file of another repository (the PTO
  ISA's `docs/isa/...`) and is not checked.

Prints each broken reference as `FILE:LINE: TARGET` and exits 1 if there is any, else 0.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = ("docs/", "crates/", "scripts/", "examples/", "tests/")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./-])((?:%s)[\w./+-]*[\w+])" % "|".join(re.escape(t) for t in TOP))


def placeholder(p):
    """A path with a part to fill in, a glob or a range: not a file name."""
    if any(c in p for c in "*{}<>…") or ".." in p:
        return True
    return any(re.fullmatch(r"[A-Z][A-Z0-9_]{2,}(\.\w+)?", part) for part in p.split("/"))


def pages(argv):
    if argv:
        return argv
    out = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [os.path.join(ROOT, f) for f in out.split()]


def check(page):
    bad = []
    here = os.path.dirname(page)
    fence = False
    with open(page, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
            for t in LINK.findall(line):
                if re.match(r"[a-z]+:", t) or t.startswith("#"):
                    continue
                t = t.split("#")[0]
                if not t:
                    continue
                if not (os.path.exists(os.path.join(here, t)) or os.path.exists(os.path.join(ROOT, t))):
                    bad.append((n, t))
            for t in PATH.findall(line):
                t = t.rstrip(".")
                # A path whose folder is not here is another repository's (PTO's `docs/isa/`).
                if placeholder(t) or not os.path.isdir(os.path.join(ROOT, os.path.dirname(t))):
                    continue
                if not os.path.exists(os.path.join(ROOT, t)):
                    bad.append((n, t))
    return sorted(set(bad))


def main():
    broken = 0
    for page in pages(sys.argv[1:]):
        for n, t in check(page):
            print(f"{os.path.relpath(page, ROOT)}:{n}: {t}")
            broken += 1
    if broken:
        print(f"check-links: {broken} broken reference(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
