#!/usr/bin/env bash
# The README's install path, checked: the obscura binary copied alone into an empty folder links only
# the runtime libraries the README lists, and runs there with its catalogue and seed scenes built in.
# Usage: tools/check-install.sh BINARY   (e.g. .build/release/obscura from
#        swift build -c release --static-swift-stdlib --product obscura)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: tools/check-install.sh BINARY}
seed=Scenes/dual-photo-calibration.scenario.yaml

# The shared libraries the README's install section names (libc's own family, libpng, zlib,
# libjpeg-turbo and libstdc++); anything else, a Swift runtime library above all, fails the check.
allowed='^(libc|libm|libdl|libpthread|librt|libutil|libgcc_s|libstdc\+\+|libpng16|libz|libjpeg|ld-linux-[a-z0-9_-]+)\.so(\.[0-9]+)*$'
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "NEEDED: $(echo $needed)"
for lib in $needed; do
    if ! [[ $lib =~ $allowed ]]; then
        echo "check-install: $binary needs $lib, which the README does not list" >&2
        exit 1
    fi
done

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bin" "$dir/home"
cp "$binary" "$dir/bin/obscura"
cp "$seed" "$dir/bin/"
cd "$dir/bin"
# A bare environment: no catalogue variables, a home of its own (the built-in data is written out to
# its cache), and nothing from the build on the library path.
run() { env -i PATH=/usr/bin:/bin HOME="$dir/home" ./obscura "$@"; }
run --version
# The list goes to a file first: `grep -q` stops reading at its match, and the writer's next line would then
# end it with SIGPIPE, which pipefail reports as a failure.
run devices list > devices.txt
grep -q '^iphone-15-pro (default)' devices.txt
run render violets-warm-room --size 80x60 --out violets.png
run run "$(basename "$seed")" --out out
test -s out/report.json
# With the toolchain's runtime libraries hidden in a private mount namespace (root only), as on a
# machine without Swift, the binary still runs.
runtime=
if swift=$(command -v swift); then runtime=$(dirname "$(dirname "$(readlink -f "$swift")")")/lib/swift; fi
if [ "$(id -u)" -eq 0 ] && [ -n "$runtime" ] && [ -d "$runtime" ] && unshare -m true 2>/dev/null; then
    env -i PATH=/usr/bin:/bin HOME="$dir/home" unshare -m sh -c \
        "mount -t tmpfs none '$runtime' && exec ./obscura render violets-warm-room --size 80x60 --out hidden.png"
    test -s hidden.png
fi
echo "check-install: the binary alone lists the catalogue, renders and runs $(basename "$seed")"
