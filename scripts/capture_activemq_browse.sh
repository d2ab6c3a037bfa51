#!/bin/sh
# Capture real `activemq browse` output (Debian's libactivemq-java, as installed by .ci/run for the
# differential tests) into tests/fixtures/formats/activemq-browse/real-5.17.2.txt (stdout of the
# console's browse command) and real-5.17.2.sent.jsonl (what was sent). Run from the repository root.
set -eu
J=/usr/share/java
CP="$J/activemq-broker.jar:$J/activemq-client.jar:$J/activemq-console.jar:$J/geronimo-jms_1.1_spec.jar:$J/slf4j-api.jar:$J/hawtbuf.jar:$J/geronimo-j2ee-management-1.1-spec.jar"
OUT=tests/fixtures/formats/activemq-browse
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
javac -cp "$CP" -d "$TMP" scripts/java/BrowseCapture.java
java -cp "$TMP:$CP" BrowseCapture > "$OUT/real-5.17.2.txt" 2> "$TMP/err"
grep '^{' "$TMP/err" > "$OUT/real-5.17.2.sent.jsonl"
