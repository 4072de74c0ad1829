#!/usr/bin/env python3
"""Every number the libraries read or write as text goes through src/base/num.c (docs/architecture.md
"Numbers and the locale"): C's strtod/printf and cJSON's number code follow the process locale.

In src/ (the libraries), outside src/base/num.c:
- no call of a libc function that reads or formats numbers by the locale or takes a caller's format
  (strtod, strtof, atof, sscanf, vsnprintf, ...), of the locale functions, or of cJSON's parser and
  printer (cJSON_Parse*, cJSON_Print*: base/json_dom.c and base/json_print.c instead);
- no floating-point conversion (%f %e %g %a) in a format string handed to libc's printf family
  (sinew__snprintf / sinew__fprintf format those).
In cli/: no setlocale or uselocale (the CLI runs in the "C" locale, so its own strtod and printf
calls read and write dots).
tests/unit/test_locale.c runs the loaders and writers under de_DE.UTF-8 and ps_AF.UTF-8.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import SRC, check, finish  # noqa: E402

FORBIDDEN = re.compile(
    r"(?<![\w.>])(strtod|strtof|strtold|atof|sscanf|vsscanf|fscanf|vfscanf|scanf|vscanf|localeconv|nl_langinfo|"
    r"setlocale|uselocale|newlocale|vsnprintf|vsprintf|vfprintf|vprintf|vdprintf|vasprintf|"
    r"cJSON_Print\w*|cJSON_Parse\w*|cJSON_SetNumberHelper)\s*\(")
PRINTF = re.compile(r"(?<![\w.>])(printf|fprintf|sprintf|snprintf|dprintf|asprintf)\s*\(")
FLOAT_CONV = re.compile(r"%[-+ #0']*(\d+|\*)?(\.(\d+|\*)?)?(hh|h|ll|l|L|j|z|t|q)?[aAeEfFgG]")


def strip(text):
    """The code with comments blanked and string/char literal contents kept apart: returns the
    code (literals replaced by "" of the same length) and a map offset -> literal text."""
    out, lits, i, n = [], {}, 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            lits[i] = text[i + 1:j - 1]
            out.append(c + " " * (j - i - 2) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out), lits


def call_args(code, start):
    """End offset of the call whose '(' is at start."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return len(code)


def line_of(text, off):
    return text.count("\n", 0, off) + 1


def scan(folder, rules):
    count = 0
    for root, _, files in os.walk(os.path.join(SRC, folder)):
        for fn in sorted(files):
            if not fn.endswith((".c", ".h")):
                continue
            path = os.path.join(root, fn)
            rel = os.path.relpath(path, SRC)
            text = open(path, encoding="utf-8").read()
            code, lits = strip(text)
            count += 1
            rules(rel, text, code, lits)
    return count


def lib_rules(rel, text, code, lits):
    if rel == os.path.join("src", "base", "num.c"):
        return
    for m in FORBIDDEN.finditer(code):
        check(False, f"{rel}:{line_of(text, m.start())}: {m.group(1)}() reads or writes numbers by the locale "
              "(use base/num.h, base/json_dom.h, base/json_print.h)")
    for m in PRINTF.finditer(code):
        open_paren = code.index("(", m.start())
        end = call_args(code, open_paren)
        fmt = "".join(v for k, v in sorted(lits.items()) if open_paren < k < end and text[k] == '"')
        fmt = fmt.replace("%%", "")
        bad = FLOAT_CONV.search(fmt)
        check(not bad, f"{rel}:{line_of(text, m.start())}: {m.group(1)}() formats '{bad.group(0) if bad else ''}' "
              "by the locale (use sinew__snprintf / sinew__fprintf)")


def cli_rules(rel, text, code, lits):
    for m in re.finditer(r"(?<![\w.>])(setlocale|uselocale)\s*\(", code):
        check(False, f"{rel}:{line_of(text, m.start())}: the CLI must stay in the C locale ({m.group(1)})")


n_lib = scan("src", lib_rules)
n_cli = scan("cli", cli_rules)
check(n_lib > 50 and n_cli > 10, f"scanned {n_lib} library and {n_cli} CLI files")
finish()
