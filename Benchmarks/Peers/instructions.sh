#!/usr/bin/env bash
# Instructions per lookup for every scenario and peer, with callgrind:
# (Ir at N2 lookups − Ir at N1 lookups) / (N2 − N1), so start-up and registration cancel out.
#   bash Benchmarks/Peers/instructions.sh        (after `swift build -c release` in Benchmarks/Peers)
set -euo pipefail
cd "$(dirname "$0")"
binary=.build/release/PeersBenchmark
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$binary" --profile "$1" "$2" "$3" >/dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$work/out"
}
variants=(handwired router swinject factory ditranquillity)
header="| scenario |"
for variant in "${variants[@]}"; do header="$header $variant |"; done
echo "$header"
for scenario in s1 s2 s3 s6; do
    row="| $scenario |"
    for variant in "${variants[@]}"; do
        if [ "$scenario" = s6 ] && [ "$variant" = factory ]; then row="$row – |"; continue; fi
        low=$(total "$scenario" "$variant" 200)
        high=$(total "$scenario" "$variant" 1200)
        row="$row $(python3 -c "print(f'{($high - $low) / 1000:,.0f}')") |"
    done
    echo "$row"
done
