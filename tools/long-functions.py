#!/usr/bin/env python3
"""Lists the functions longer than N lines (default 150) in the C files under a folder (default
src), longest first: a definition starts at a line in column 0 whose signature (on that line or
the next ones) opens a body with '{', and ends at the next '}' in column 0 (the project's style).
Usage: tools/long-functions.py [N] [FOLDER]"""
import pathlib
import re
import sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
root = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else 'src')
found = []
for path in sorted(root.rglob('*.c')):
    lines = path.read_text().split('\n')
    start = name = None
    for i, line in enumerate(lines):
        if start is not None:
            if line.startswith('}'):
                if i - start + 1 > limit:
                    found.append((i - start + 1, name, f'{path}:{start + 1}'))
                start = None
            continue
        if not line or line[0].isspace() or line.startswith(('#', '/', '}', 'typedef', 'struct', 'enum')):
            continue
        if '(' not in line or line.rstrip().endswith(';'):
            continue
        j = i  # a signature may run over several lines: find where it ends
        while j < len(lines) and not lines[j].rstrip().endswith(('{', ';')):
            j += 1
        if j < len(lines) and lines[j].rstrip().endswith('{') and '=' not in line.split('(')[0]:
            m = re.search(r'(\w+)\s*\(', line)
            start, name = i, m.group(1) if m else '?'
for n, name, where in sorted(found, reverse=True):
    print(f'{n:5d} {name} {where}')
