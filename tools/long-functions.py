#!/usr/bin/env python3
"""Lists the functions longer than N lines (default 150) in the C files under a folder (default
src), longest first: lines from the one that starts the definition to its closing '}'.

The definitions and where they end come from universal-ctags (Debian: universal-ctags), which
parses C: a rule on the text alone, such as "a function ends at the next '}' in column 0", ends
a function early at a label's block (sinew__jdom_parse's `bad_literal: { ... }`) and runs a
one-line function into the next one.
Usage: tools/long-functions.py [N] [FOLDER]"""
import json
import pathlib
import shutil
import subprocess
import sys

NEED = 'tools/long-functions.py needs universal-ctags (Debian: apt-get install universal-ctags)'

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else 'src')
ctags = shutil.which('ctags') or shutil.which('universal-ctags')
if not ctags:
    sys.exit(f'{NEED}: no ctags on PATH')
version = subprocess.run([ctags, '--version'], capture_output=True, text=True).stdout
if 'Universal Ctags' not in version:
    sys.exit(f'{NEED}: {ctags} is another ctags ({version.splitlines()[0] if version else "no --version"}), '
             'without the end lines of functions')
files = sorted(str(p) for p in root.rglob('*.c'))
if not files:
    sys.exit(f'tools/long-functions.py: no C files under {root}')
run = subprocess.run([ctags, '--output-format=json', '--fields=+ne', '--kinds-C=f', '--language-force=C', '-L', '-',
                      '-f', '-'], input='\n'.join(files) + '\n', capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f'tools/long-functions.py: ctags failed: {run.stderr.strip()}')
found = []
for line in run.stdout.splitlines():
    tag = json.loads(line)
    if tag.get('_type') != 'tag' or tag.get('kind') != 'function':
        continue
    if 'end' not in tag:
        sys.exit(f'tools/long-functions.py: ctags gave no end line for {tag["name"]} ({tag["path"]}:{tag["line"]})')
    n = tag['end'] - tag['line'] + 1
    if n > limit:
        found.append((n, tag['name'], f'{tag["path"]}:{tag["line"]}'))
for n, name, where in sorted(found, key=lambda f: (-f[0], f[2])):
    print(f'{n:5d} {name} {where}')
