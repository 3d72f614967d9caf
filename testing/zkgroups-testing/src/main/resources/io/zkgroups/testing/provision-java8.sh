#!/usr/bin/env bash
# Makes a Java 8 runtime from Debian's packages in ROOT (an absolute path), for tests that run code on Java 8:
# a minimal Debian 13 (trixie) root made with debootstrap, with sid added to its sources, and sid's
# openjdk-8-jre-headless installed in it (it needs a newer C library than the build machine's). The JVM then runs
# from outside the root: its java binary gets the root's dynamic loader (patchelf) and ROOT/java-home/bin/java is a
# wrapper that puts the root's libraries first. ROOT/.complete marks a finished root; a run that was cut short
# leaves none and the next run starts over. Needs root (debootstrap, chroot, mount) and Debian's mirrors.
#
# usage: provision-java8.sh ROOT
# exit 0: ROOT/java-home/bin/java runs; exit 3: it cannot be made here (the message says why); other: failed.
set -euo pipefail

root="${1:?usage: provision-java8.sh ROOT}"
mirror="${ZKGROUPS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
jvm=/usr/lib/jvm/java-8-openjdk-amd64/jre
apt_options=(-o Acquire::Check-Valid-Until=false -o Dpkg::Use-Pty=0 -q)

unavailable() {
    echo "no Java 8 runtime: $*" >&2
    exit 3
}

[[ "$root" == /* ]] || unavailable "ROOT must be an absolute path, got '$root'"
[[ "$(id -u)" == 0 ]] || unavailable "making it needs root (debootstrap, chroot); this build runs as $(id -un)"
[[ "$(uname -m)" == x86_64 ]] || unavailable "only made for x86_64, this machine is $(uname -m)"

if ! command -v debootstrap >/dev/null; then
    echo "installing debootstrap with apt-get" >&2
    apt-get "${apt_options[@]}" update >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install -y --no-install-recommends debootstrap >&2 \
        || unavailable "apt-get cannot install debootstrap (no network or no Debian mirror?)"
fi

[[ "$(basename "$root")" != "" && "$root" != / ]] || unavailable "refusing ROOT '$root'"
umount "$root/proc" 2>/dev/null || true # left mounted by a run that was killed
rm -rf "$root"
mkdir -p "$root"
echo "debootstrap --variant=minbase trixie $root" >&2
debootstrap --variant=minbase trixie "$root" "$mirror" >&2 \
    || unavailable "debootstrap of Debian trixie from $mirror failed (no network?); its log: $root/debootstrap/debootstrap.log"
echo "deb $mirror sid main" > "$root/etc/apt/sources.list.d/sid.list"

mount -t proc proc "$root/proc" # openjdk-8's configure step runs java, which needs /proc
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" apt-get "${apt_options[@]}" update >&2
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get "${apt_options[@]}" install -y --no-install-recommends \
    openjdk-8-jre-headless patchelf >&2 \
    || unavailable "apt-get in the trixie root cannot install sid's openjdk-8-jre-headless"
chroot "$root" apt-get clean
umount "$root/proc"
trap - EXIT

# Run from outside the root: the root's loader, and links into the root's /etc instead of the machine's.
chroot "$root" patchelf --set-interpreter "$root/lib64/ld-linux-x86-64.so.2" "$jvm/bin/java"
find "$root/usr/lib/jvm" -type l -lname '/*' | while read -r link; do
    ln -sfn "$root$(readlink "$link")" "$link"
done
mkdir -p "$root/java-home/bin"
cat > "$root/java-home/bin/java" <<EOF
#!/bin/sh
# Debian sid's OpenJDK 8 in $root, with that root's C library.
LD_LIBRARY_PATH="$root/lib/x86_64-linux-gnu:$root/usr/lib/x86_64-linux-gnu" exec "$root$jvm/bin/java" "\$@"
EOF
chmod 755 "$root/java-home/bin/java"

"$root/java-home/bin/java" -version >&2
chroot "$root" dpkg-query -W -f '${Version}\n' openjdk-8-jre-headless > "$root/.complete"
echo "Java 8 runtime ready: $root/java-home/bin/java (openjdk-8-jre-headless $(cat "$root/.complete"))" >&2
