"""What the Docker tests read: the Dockerfile's stages and instructions, the shared libraries a
binary loads, the Debian packages that own them, and the packages of debian:bookworm-slim.

Nothing here runs Docker: the image's contents are worked out from the Dockerfile's text, the
dpkg database of this (Debian 12 bookworm) machine and the published package list of the base
image.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"

# Every package of debian:bookworm-slim, from the rootfs.manifest that debuerreotype (the
# builder of Docker's official Debian images) publishes beside each build of the image, in its
# docker-debian-artifacts repository (bookworm/slim/rootfs.manifest, a build of Debian 12.7:
# base-files 12.4+deb12u7). It is the image's own dpkg database listed, so it needs no
# inference: the slim variant is debootstrap's minbase (the packages of priority required,
# and apt) with documentation removed. Package names do not change within a Debian release;
# versions do, and are left out. Architecture qualifiers are left out too.
BOOKWORM_SLIM = frozenset("""
adduser apt base-files base-passwd bash bsdutils coreutils dash debconf debian-archive-keyring
debianutils diffutils dpkg e2fsprogs findutils gcc-12-base gpgv grep gzip hostname
init-system-helpers libacl1 libapt-pkg6.0 libattr1 libaudit-common libaudit1 libblkid1
libbz2-1.0 libc-bin libc6 libcap-ng0 libcap2 libcom-err2 libcrypt1 libdb5.3 libdebconfclient0
libext2fs2 libffi8 libgcc-s1 libgcrypt20 libgmp10 libgnutls30 libgpg-error0 libhogweed6
libidn2-0 liblz4-1 liblzma5 libmd0 libmount1 libnettle8 libp11-kit0 libpam-modules
libpam-modules-bin libpam-runtime libpam0g libpcre2-8-0 libseccomp2 libselinux1
libsemanage-common libsemanage2 libsepol2 libsmartcols1 libss2 libstdc++6 libsystemd0
libtasn1-6 libtinfo6 libudev1 libunistring2 libuuid1 libxxhash0 libzstd1 login logsave mawk
mount ncurses-base ncurses-bin passwd perl-base sed sysvinit-utils tar tzdata usr-is-merged
util-linux util-linux-extra zlib1g
""".split())


@dataclass
class Stage:
    """One `FROM` stage of a Dockerfile: its base image, its name and its instructions."""
    image: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def arguments(self, keyword: str) -> list[str]:
        """The arguments of every instruction of this kind (`RUN`, `COPY`…), in order."""
        return [args for kind, args in self.instructions if kind == keyword]

    def apt_installed(self) -> list[str]:
        """The packages named by `apt-get install` in this stage's RUN instructions, versions
        (`name=1.2`) cut off."""
        packages = []
        for command in self.arguments("RUN"):
            for part in re.split(r"&&|;|\|\|", command):
                words = shlex.split(part)
                if len(words) > 2 and words[0] in ("apt-get", "apt") and "install" in words:
                    after = words[words.index("install") + 1:]
                    packages += [w.split("=")[0] for w in after if not w.startswith("-")]
        return packages


def read_stages(text: str) -> list[Stage]:
    """The stages of a Dockerfile's text: continuation lines joined, comments dropped."""
    logical, pending = [], ""
    for line in text.splitlines():
        if line.strip().startswith("#") or (not line.strip() and pending):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    stages: list[Stage] = []
    for line in filter(str.strip, logical):
        keyword, _, args = line.strip().partition(" ")
        keyword, args = keyword.upper(), " ".join(args.split())
        if keyword == "FROM":
            words = args.split()
            name = words[2] if len(words) > 2 and words[1].upper() == "AS" else None
            stages.append(Stage(image=words[0], name=name))
        elif stages:
            stages[-1].instructions.append((keyword, args))
    return stages


def copy_sources(args: str) -> list[str] | None:
    """The build-context sources of a COPY's arguments, or None for a `COPY --from=` (which
    copies from another stage)."""
    words = shlex.split(args)
    flags = [w for w in words if w.startswith("--")]
    if any(f.startswith("--from=") for f in flags):
        return None
    paths = [w for w in words if not w.startswith("--")]
    return paths[:-1]


def toolchain_usr() -> Path:
    """The Swift toolchain's `usr` folder (where `swiftc` on PATH lives)."""
    swiftc = shutil.which("swiftc")
    assert swiftc, "swiftc is not on PATH"
    return Path(swiftc).resolve().parents[1]


def shared_libraries(binary: Path) -> dict[str, Path]:
    """Every shared library `ldd` says the binary loads (its dependencies' too): soname → path.
    A library that ldd cannot find is an assertion failure."""
    run = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, check=True, timeout=60)
    libraries = {}
    for line in run.stdout.splitlines():
        line = line.strip()
        if "=> not found" in line:
            raise AssertionError(f"ldd finds no {line.split()[0]} for {binary}")
        match = re.match(r"(\S+) => (/\S+) \(", line) or re.match(r"((/\S+)) \(", line)
        if match:
            libraries[Path(match.group(1)).name] = Path(match.group(2))
    return libraries


def static_stdlib_system_libraries(usr: Path) -> dict[str, Path]:
    """The system libraries that `--static-swift-stdlib` links against: the `-l` flags of the
    toolchain's static-stdlib-args.lnk whose archive is not in the toolchain's swift_static
    folder (`-lswiftCore`, `-ldispatch`… go inside the binary; `-lstdc++`, `-lm`… do not),
    each resolved to its runtime library through the dynamic linker's cache."""
    folder = usr / "lib" / "swift_static" / "linux"
    names = re.findall(r"(?:^|\s)-l(\S+)", (folder / "static-stdlib-args.lnk").read_text())
    system = [n for n in names if not (folder / f"lib{n}.a").exists()]
    cache = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    libraries = {}
    for name in system:
        match = re.search(rf"^\s*(lib{re.escape(name)}\.so\.\S+) \(.*x86-64.*\) => (\S+)$", cache, re.M)
        assert match, f"no runtime library for -l{name} in the dynamic linker's cache"
        libraries[match.group(1)] = Path(match.group(2))
    return libraries


def libraries_outside_toolchain(binary: Path, usr: Path) -> dict[str, Path]:
    """The shared libraries the binary would load in the image. A static-stdlib build's ldd is
    that already. An ordinary build also loads the toolchain's libraries, which the static link
    puts inside the binary: those are left out, and what the static stdlib needs from the
    system instead is added."""
    libraries = shared_libraries(binary)
    toolchain = {name for name, path in libraries.items() if path.resolve().is_relative_to(usr.parent)}
    if toolchain:
        libraries = {n: p for n, p in libraries.items() if n not in toolchain}
        libraries.update(static_stdlib_system_libraries(usr))
    return libraries


def owning_packages(libraries: dict[str, Path]) -> dict[str, str]:
    """The Debian package that installed each library (soname → package), asked of dpkg in one
    call under the path ldd gave, its resolved path, and its other spelling across the merged
    /usr (`/lib` and `/usr/lib`). A library that no package owns is an assertion failure."""
    spellings = {}
    for name, path in libraries.items():
        variants = [str(path), str(path.resolve())]
        variants += [v[4:] if v.startswith("/usr/") else "/usr" + v for v in list(variants)]
        spellings[name] = list(dict.fromkeys(variants))
    every = sorted({v for variants in spellings.values() for v in variants})
    run = subprocess.run(["dpkg-query", "-S", *every], capture_output=True, text=True)
    owner_of = {}
    for line in run.stdout.splitlines():
        packages, _, file = line.rpartition(": ")
        owner_of[file] = packages.split(",")[0].split(":")[0].strip()
    owners = {}
    for name, variants in spellings.items():
        found = [owner_of[v] for v in variants if v in owner_of]
        assert found, f"no Debian package owns {libraries[name]}"
        owners[name] = found[0]
    return owners


def installed_dependencies() -> dict[str, list[str]]:
    """For every package installed here: the packages its Depends and Pre-Depends name (the
    first of each set of alternatives, as apt picks it), from the local dpkg database."""
    run = subprocess.run(["dpkg-query", "-W", "-f", "${Package}\t${Depends}, ${Pre-Depends}\n"],
                         capture_output=True, text=True, check=True)
    table = {}
    for line in run.stdout.splitlines():
        package, _, relations = line.partition("\t")
        names = []
        for relation in relations.split(","):
            first = relation.split("|")[0].strip()
            if first:
                names.append(first.split()[0].split(":")[0])
        table[package] = names
    return table


def with_dependencies(packages: list[str], dependencies: dict[str, list[str]]) -> set[str]:
    """The packages and, recursively, what they depend on: what `apt-get install
    --no-install-recommends` installs for them."""
    found, todo = set(), list(packages)
    while todo:
        package = todo.pop()
        if package not in found:
            found.add(package)
            todo += dependencies.get(package, [])
    return found


def uncovered_libraries(dockerfile_text: str, owners: dict[str, str]) -> dict[str, str]:
    """Of the libraries given with their packages (soname → package), those whose package
    neither the runtime stage's apt-get install (with dependencies) nor debian:bookworm-slim
    provides."""
    runtime = read_stages(dockerfile_text)[-1]
    assert runtime.image == "debian:bookworm-slim", f"the runtime stage is built on {runtime.image}"
    provided = with_dependencies(runtime.apt_installed(), installed_dependencies()) | BOOKWORM_SLIM
    return {name: package for name, package in owners.items() if package not in provided}
