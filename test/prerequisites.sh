#!/usr/bin/env bash
# What the tests need beyond npm packages, as Debian package names.
#   test/prerequisites.sh unit|package|fuzz   stops at once with one line naming what to install
#   test/prerequisites.sh --install          installs everything (CI, as root)
set -euo pipefail

# command or file -> Debian package; "unit" is npm test, "package" is npm run test:package, "fuzz" the fuzzers
# (protoc's google/protobuf/*.proto come with libprotobuf-dev, which protobuf-compiler only recommends)
unit=(cmake:cmake ninja:ninja-build g++:g++ /usr/include/gtest/gtest.h:libgtest-dev em++:emscripten
  /usr/share/nodejs/acorn/package.json:node-acorn protoc:protobuf-compiler
  /usr/include/google/protobuf/descriptor.proto:libprotobuf-dev)
package=(chromium:chromium)
fuzz=(clang++-14:clang-14 /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-i386.a:libclang-rt-14-dev
  /usr/lib/gcc/x86_64-linux-gnu/12/32/libstdc++.so:lib32stdc++-12-dev /usr/include/x86_64-linux-gnu/gnu/stubs-32.h:libc6-dev-i386)

case "${1:-unit}" in
  --install)
    apt-get update -qq
    all=("${unit[@]}" "${package[@]}" "${fuzz[@]}")
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${all[@]#*:}" >/dev/null
    exit 0 ;;
  unit) wanted=("${unit[@]}") ;;
  package) wanted=("${unit[@]}" "${package[@]}") ;;
  fuzz) wanted=("${unit[@]}" "${fuzz[@]}") ;;
  *) echo "usage: $0 unit|package|fuzz|--install" >&2; exit 2 ;;
esac

missing=()
for entry in "${wanted[@]}"; do
  need=${entry%%:*}
  if [[ $need == /* ]]; then compgen -G "$need" >/dev/null && continue; else command -v "$need" >/dev/null && continue; fi
  missing+=("${entry#*:}")
done
if ((${#missing[@]})); then
  echo "missing system packages; install them with: sudo apt-get install -y ${missing[*]}  (or run bash test/prerequisites.sh --install as root)" >&2
  exit 1
fi
