# Sourced by the install scripts: install_debs NAME PACKAGE... installs the
# Debian packages not installed yet (apt-get, with sudo when not root) and
# prints "NAME: package version ..." for all of them. Idempotent.
install_debs() {
  local name=$1
  shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}"
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  echo "$name: $(dpkg-query -W -f='${Package} ${Version}  ' "$@")"
}
