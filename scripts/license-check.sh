#!/usr/bin/env bash
# The licence, declared wherever a user meets the project (CI runs it; cheap):
#   LICENSE                      the Apache License 2.0, at the repository's root
#   pom.xml                      the parent's <licenses>: Apache-2.0, which every module inherits, so each
#                                module must have the parent and declare no <licenses> of its own
#   bom/pom.xml                  Apache-2.0 too: the BOM has no parent
#   clients/js                   package.json and its lockfile's root entry say Apache-2.0, and the
#                                LICENSE that npm packs beside them is the root's
# Given release tarballs (scripts/dist.sh), also that each holds LICENSE, equal to the root's.
#   bash scripts/license-check.sh [dist/proofline-<version>-linux-x64.tar.gz ...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 - "$@" <<'PY'
import json, sys, tarfile
import xml.etree.ElementTree as ET

SPDX = "Apache-2.0"
NS = {"m": "http://maven.apache.org/POM/4.0.0"}
failures = []

def fail(message):
    failures.append(message)

try:
    license_text = open("LICENSE", "rb").read()
except FileNotFoundError:
    license_text = b""
head = [line.strip() for line in license_text.decode().splitlines() if line.strip()][:2]
if head != ["Apache License", "Version 2.0, January 2004"] \
        or b"TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" not in license_text:
    fail("LICENSE is not the Apache License 2.0")

def declared_licenses(pom):
    """The names in the project's own <licenses> (not a profile's), or None without one."""
    element = pom.find("m:licenses", NS)
    if element is None:
        return None
    return [name.text.strip() for name in element.findall("m:license/m:name", NS)]

root = ET.parse("pom.xml").getroot()
if declared_licenses(root) != [SPDX]:
    fail(f"pom.xml declares {declared_licenses(root)}, expected [{SPDX}]")
bom = ET.parse("bom/pom.xml").getroot()
if bom.find("m:parent", NS) is not None or declared_licenses(bom) != [SPDX]:
    fail(f"bom/pom.xml (no parent) declares {declared_licenses(bom)}, expected [{SPDX}]")
parent_id = root.find("m:artifactId", NS).text
for module in root.findall("m:modules/m:module", NS):
    if module.text == "bom":
        continue
    pom = ET.parse(f"{module.text}/pom.xml").getroot()
    parent = pom.find("m:parent/m:artifactId", NS)
    if parent is None or parent.text != parent_id:
        fail(f"{module.text}/pom.xml does not have {parent_id} as parent, so it does not inherit its licence")
    if declared_licenses(pom) is not None:
        fail(f"{module.text}/pom.xml declares its own licences {declared_licenses(pom)}")

package = json.load(open("clients/js/package.json"))
if package.get("license") != SPDX:
    fail(f"clients/js/package.json: license {package.get('license')!r}, expected {SPDX!r}")
lock_root = json.load(open("clients/js/package-lock.json"))["packages"][""]
if lock_root.get("license") != SPDX:
    fail(f"clients/js/package-lock.json: root license {lock_root.get('license')!r}, expected {SPDX!r}")
try:
    if open("clients/js/LICENSE", "rb").read() != license_text:
        fail("clients/js/LICENSE differs from LICENSE")
except FileNotFoundError:
    fail("clients/js has no LICENSE (npm packs the package directory's own)")

for tarball in sys.argv[1:]:
    with tarfile.open(tarball) as archive:
        tops = {name.split("/")[0] for name in archive.getnames()}
        if len(tops) != 1:
            fail(f"{tarball}: expected one top directory, found {sorted(tops)}")
            continue
        try:
            shipped = archive.extractfile(f"{tops.pop()}/LICENSE").read()
        except KeyError:
            fail(f"{tarball}: no LICENSE in the release")
            continue
        if shipped != license_text:
            fail(f"{tarball}: its LICENSE differs from the repository's")

for message in failures:
    print(f"license-check: {message}", file=sys.stderr)
if failures:
    sys.exit(1)
print(f"license-check: {SPDX} declared in LICENSE, every POM, the JavaScript client"
      + (f" and {len(sys.argv) - 1} release(s)" if len(sys.argv) > 1 else ""))
PY
