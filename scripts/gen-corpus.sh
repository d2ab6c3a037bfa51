#!/usr/bin/env bash
# Regenerate the Java-oracle selector corpora (needs a JDK 17: javac and java).
# Java computes every expectation: see scripts/java/PromotionOracle.java.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p tests/corpus
javac -d /tmp/oracle scripts/java/PromotionOracle.java && java -cp /tmp/oracle PromotionOracle > tests/corpus/numeric-promotion.jsonl
java -cp /tmp/oracle PromotionOracle compare > tests/corpus/numeric-compare.jsonl
wc -l tests/corpus/numeric-promotion.jsonl tests/corpus/numeric-compare.jsonl
