#!/usr/bin/env bash
# Builds the demo's optional gift card feature as a plugin, .build/<configuration>/plugins/libGiftCards.so,
# which the demo loads at start when it is there (`swift run Demo` alone runs without it).
#
# The library holds the feature's own objects only: Router and ShopInterfaces stay undefined in it and bind,
# when the demo loads it, to the demo's own copies (the demo is linked with --export-dynamic). So there is
# one copy of Router at run time. Linking SwiftPM's `.dynamic` product of the feature instead would put a
# second copy of Router (and of ShopInterfaces) in the library, whose records discovery then refuses.
#
# Usage: bash scripts/build-plugin.sh [debug|release]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${1:-debug}
swift build -c "$configuration" --product Demo
swift build -c "$configuration" --target GiftCardsFeature
bin=$(swift build -c "$configuration" --show-bin-path)
mkdir -p "$bin/plugins"
swiftc -emit-library -o "$bin/plugins/libGiftCards.so" "$bin/GiftCardsFeature.build/"*.o
# The check that matters: the library defines none of Router's symbols, it only refers to them.
if nm -D --defined-only "$bin/plugins/libGiftCards.so" | grep -q 'ModuleDiscoveryV6export'; then
    echo "libGiftCards.so carries a copy of Router"; exit 1
fi
echo "built $bin/plugins/libGiftCards.so ($(nm -D --undefined-only "$bin/plugins/libGiftCards.so" | grep -c 'Router\|ShopInterfaces') symbols bound to the demo's Router and ShopInterfaces)"
