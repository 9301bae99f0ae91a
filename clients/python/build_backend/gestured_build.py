"""A PEP 517 build backend for the gestured client, standard library only.

Why not setuptools: pip builds in an isolated environment and would download setuptools there,
which fails offline; a backend in the source tree with no requirements builds anywhere. It makes a
pure-Python wheel of src/gestured (and an sdist), with the metadata of pyproject.toml's [project]
(the few flat keys used there: read without a TOML library, which Python < 3.11 lacks)."""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "gestured"
TAG = "py3-none-any"


def _project():
    keys = {}
    section = None
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                section = line
                continue
            match = re.match(r'^([A-Za-z-]+)\s*=\s*"(.*)"$', line)
            if section == "[project]" and match:
                keys[match.group(1)] = match.group(2)
    return keys


def _metadata():
    p = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
             f"Summary: {p['description']}", f"Requires-Python: {p['requires-python']}",
             f"License: {p['license']}", "Classifier: Programming Language :: Python :: 3",
             "Classifier: Framework :: AsyncIO", "Classifier: Operating System :: POSIX :: Linux"]
    readme = os.path.join(HERE, p.get("readme", "README.md"))
    text = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            text = f.read()
    return "\n".join(lines) + "\n\n" + text, p


def _sources():
    root = os.path.join(HERE, "src", PACKAGE)
    for name in sorted(os.listdir(root)):
        if name.endswith(".py") or name == "py.typed":
            yield os.path.join(root, name), f"{PACKAGE}/{name}"


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, files):
    metadata, project = _metadata()
    name, version = project["name"], project["version"]
    dist_info = f"{name}-{version}.dist-info"
    wheel_name = f"{name}-{version}-{TAG}.whl"
    entries = list(files) + [
        (f"{dist_info}/METADATA", metadata.encode("utf-8")),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: gestured_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()),
    ]
    record = [_record_line(arc, data) for arc, data in entries] + [f"{dist_info}/RECORD,,"]
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for arc, data in entries:
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for path, arc in _sources():
        with open(path, "rb") as f:
            files.append((arc, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e`: a .pth file pointing at src/."""
    _, project = _metadata()
    return _write_wheel(wheel_directory, [(f"__editable__.{project['name']}.pth",
                                          (os.path.join(HERE, "src") + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    _, project = _metadata()
    base = f"{project['name']}-{project['version']}"
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for top in ("pyproject.toml", "README.md", "build_backend", "src", "examples"):
            path = os.path.join(HERE, top)
            if os.path.exists(path):
                tar.add(path, arcname=f"{base}/{top}",
                        filter=lambda t: None if "__pycache__" in t.name else t)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata()[0].encode("utf-8")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []
