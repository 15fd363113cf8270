#!/usr/bin/env bash
# Summarise a diff for review: per-file churn, totals, and whether tests changed.
# Usage: diff-stats.sh [BASE]
# BASE defaults to origin/main when it exists, else main. The diff runs from the
# merge base of BASE and HEAD to the working tree, so uncommitted edits count.
set -euo pipefail

base="${1:-}"
if [[ -z "$base" ]]; then
    if git rev-parse --verify --quiet origin/main >/dev/null; then
        base=origin/main
    else
        base=main
    fi
fi

merge_base=$(git merge-base "$base" HEAD)
echo "Diff against $base (merge base ${merge_base:0:12})"

git diff --numstat "$merge_base" -- | awk '
    BEGIN { files = 0; added = 0; removed = 0; tests = 0 }
    {
        files++
        path = $3
        if ($1 != "-") { added += $1; removed += $2 }
        if (path ~ /(^|\/)(tests?|__tests__)\// || path ~ /(_test|\.test|\.spec)\.[a-z]+$/ || path ~ /(^|\/)test_[^\/]*$/) tests++
        flag = ($1 != "-" && $1 + $2 > 400) ? "  <- large: review in parts" : ""
        printf "%7s %7s  %s%s\n", "+" $1, "-" $2, path, flag
    }
    END {
        printf "\n%d file(s), +%d -%d, %d test file(s) changed\n", files, added, removed, tests
        if (files > 0 && tests == 0) print "No test file changed: ask how the change is tested."
    }'
