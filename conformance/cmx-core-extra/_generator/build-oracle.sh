#!/bin/sh
# Build the cmx-core oracle offline: the Rust reference crate (svetzal/context-mixer2,
# crate cmx-core) against Debian's librust-*-dev packages, plus the driver in oracle/.
#
#   build-oracle.sh REFERENCE_CHECKOUT SCRATCH_DIR
#
# REFERENCE_CHECKOUT is a checkout of context-mixer2 (only its cmx-core/ is used);
# SCRATCH_DIR is created and must lie outside this repository. Prints the binary path.
set -eu
ref=$1
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$scratch/.cargo"
rm -rf "$scratch/cmx-core" "$scratch/driver"
cp -r "$ref/cmx-core" "$scratch/cmx-core"
rm -rf "$scratch/cmx-core/conformance"
cp -r "$here/oracle" "$scratch/driver"
python3 - "$scratch/cmx-core/Cargo.toml" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
# Out of the upstream workspace: inline the inherited fields.
text = text.replace("edition.workspace = true", 'edition = "2024"')
text = text.replace("rust-version.workspace = true\n", "")
text = text.replace("authors.workspace = true\n", "")
text = text.replace("license.workspace = true", 'license = "MIT"')
text = text.replace("[lints]\nworkspace = true\n", "")
# The optional `llm` feature (tokio + mojentic) is not in Debian and not needed.
text = text.replace('llm = ["dep:tokio", "dep:mojentic"]\n', "")
text = re.sub(r"tokio = \{[^}]*optional = true \}\n", "", text)
text = re.sub(r"mojentic = .*\n", "", text)
# Dev-dependencies are only for the crate's own tests.
text = re.sub(r"\[dev-dependencies\]\n(?:.*\n)*?\n", "", text)
# Debian bookworm ships older semver-compatible majors of four crates.
for old, new in (
    ('thiserror = "2"', 'thiserror = "1"'),
    ('chrono = "0.4.45"', 'chrono = "0.4"'),
    ('dirs = "6"', 'dirs = "4"'),
    ('sha2 = "0.11"', 'sha2 = "0.10"'),
):
    text = text.replace(old, new)
open(path, "w").write(text)
PY
cat > "$scratch/Cargo.toml" <<'TOML'
[workspace]
members = ["cmx-core", "driver"]
resolver = "3"
TOML
cat > "$scratch/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
TOML
cd "$scratch"
cargo build --release -q -p cmx-oracle
echo "$scratch/target/release/cmx-oracle"
