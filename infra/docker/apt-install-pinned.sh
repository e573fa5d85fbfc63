#!/bin/sh
# Installs Debian packages for a Seekframe image, each at its preferred version while Debian's
# archive still has it, otherwise at the archive's current version, and says so: Debian's security
# archive keeps only the newest Chromium build, so a hard pin would fail every build a few weeks
# after it was written. What was installed is recorded in /usr/share/seekframe/image-versions.json
# (read by build-image.sh for the image labels, and by `seekframe doctor` and the render metadata
# inside the image), so renders are compared only between equal versions.
#   apt-install-pinned.sh chromium-headless-shell=156.0.8078.108-1~deb12u1 ffmpeg=7:5.1.9-0+deb12u1 tini ...
set -eu

RECORD=/usr/share/seekframe/image-versions.json
export DEBIAN_FRONTEND=noninteractive

apt-get update -qq
install=""
notes=""
for spec in "$@"; do
  name=${spec%%=*}
  if [ "$name" = "$spec" ]; then
    install="$install $name"
    continue
  fi
  preferred=${spec#*=}
  if apt-cache madison "$name" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep -qxF "$preferred"; then
    install="$install $name=$preferred"
  else
    current=$(apt-cache policy "$name" | awk '/Candidate:/ { print $2 }')
    if [ -z "$current" ] || [ "$current" = "(none)" ]; then
      echo "seekframe image: $name is not in the archive at all" >&2
      exit 1
    fi
    echo "seekframe image: the preferred $name=$preferred is no longer in Debian's archive; installing the current $current instead (recorded in $RECORD)" >&2
    install="$install $name"
    notes="$notes $name=$preferred"
  fi
done
# shellcheck disable=SC2086 # the package list is meant to split
apt-get install -y -qq --no-install-recommends $install >/dev/null
rm -rf /var/lib/apt/lists/*

# {"debian":"12.x","packages":{"<name>":{"version":"<installed>","preferred":"<pin>"|null}},"fallbacks":["<name>=<pin>"]}
mkdir -p "$(dirname "$RECORD")"
{
  printf '{"debian":"%s","packages":{' "$(cat /etc/debian_version)"
  sep=""
  for spec in "$@"; do
    name=${spec%%=*}
    preferred=null
    [ "$name" != "$spec" ] && preferred="\"${spec#*=}\""
    printf '%s"%s":{"version":"%s","preferred":%s}' "$sep" "$name" "$(dpkg-query -W -f='${Version}' "$name")" "$preferred"
    sep=","
  done
  printf '},"fallbacks":['
  sep=""
  for note in $notes; do
    printf '%s"%s"' "$sep" "$note"
    sep=","
  done
  printf ']}\n'
} >"$RECORD"
cat "$RECORD"
