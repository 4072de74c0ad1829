#!/bin/sh
# Generates the locales of tests/unit/test_locale.c into DIR (given to the test as LOCPATH), with
# localedef and without root: de_DE.UTF-8 (a decimal comma) and ps_AF.UTF-8 (the two-byte decimal
# separator U+066B). Their definitions come from the Debian package `locales`
# (/usr/share/i18n/locales), one of the test packages (Makefile TEST_PACKAGES, tools/deps.sh).
# Run by ctest as the fixture setup.locales; a locale already made is kept.
dir=${1:?usage: make-locales.sh DIR}
mkdir -p "$dir" || exit 1
for l in de_DE ps_AF; do
  out="$dir/$l.UTF-8"
  [ -f "$out/LC_NUMERIC" ] && continue
  if [ ! -f "/usr/share/i18n/locales/$l" ]; then
    echo "make-locales: /usr/share/i18n/locales/$l is missing: apt-get install locales (make deps does)" >&2
    exit 1
  fi
  rm -rf "$out"
  # (localedef exits 1 for mere warnings; the made locale is what counts)
  localedef -i "$l" -f UTF-8 "$out" >"$dir/$l.log" 2>&1
  if [ ! -f "$out/LC_NUMERIC" ]; then
    echo "make-locales: localedef could not make $l.UTF-8:" >&2
    cat "$dir/$l.log" >&2
    exit 1
  fi
  echo "make-locales: $out"
done
