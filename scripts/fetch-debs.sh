#!/bin/sh
# Downloads the Debian packages that scripts/offline-env.sh unpacks, into
# .deps/debs (ignored by git), for a build on a machine without a registry.
set -eu
mkdir -p .deps/debs
cd .deps/debs
apt-get download libhdf5-dev libhdf5-103-1 libhdf5-hl-100 libsz2 libaec0 libaec-dev \
    zlib1g-dev libinih-dev libinih1 libcmocka0 libcmocka-dev
