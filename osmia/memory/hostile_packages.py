"""Look-alike packages: a name one typing slip from a well-known package, told to be installed.

A typosquat (``reqeusts``, ``lodahs``, ``djnago``) is published to be installed by mistake; a
learning that tells the next run to install one, or to "use `reqeusts` from PyPI instead", plants
whatever the squatter shipped. No lesson tells that: a lesson names the real package, or warns
against the squat ("never install reqeusts"), which the caller judges per clause as every act
(:func:`osmia.memory.hostile._told`).

A name is a squat when it is not a well-known package but is one edit from one (a letter
changed, added or dropped, or two neighbours swapped), and that package's name has five letters
or more (shorter names have many honest neighbours). :data:`WELL_KNOWN` holds the commonest
Python and JavaScript packages, and the honest neighbours among them (``request`` and
``requests``, ``boto`` and ``boto3``, ``toml`` and ``tomli``), so neither of a pair is taken for
the other. Only names in an install command or named to be used are read.
"""

from __future__ import annotations

from collections.abc import Iterator

from osmia.memory.linear import Match, linear

__all__ = ["WELL_KNOWN", "squatted"]

_NAMES = """
    requests request urllib3 numpy pandas scipy matplotlib setuptools django flask fastapi pydantic
    sqlalchemy boto3 botocore boto pytest pyyaml pyaml cryptography pillow jinja2 click certifi idna
    charset-normalizer attrs packaging typing-extensions python-dateutil pytz tensorflow torch
    scikit-learn beautifulsoup4 lxml selenium celery redis psycopg2 psycopg2-binary psycopg pymongo
    paramiko aiohttp httpx uvicorn gunicorn openai anthropic colorama tqdm rich black mypy ruff flake8
    pylint isort coverage docker kubernetes protobuf grpcio werkzeug markupsafe itsdangerous jsonschema
    pyjwt bcrypt passlib ansible keras transformers opencv-python dnspython simplejson ujson orjson
    toml tomli tomlkit virtualenv wheel twine poetry pipenv mock faker arrow pendulum structlog
    sentry-sdk prometheus-client pyopenssl pycryptodome oauthlib requests-oauthlib google-auth
    azure-identity awscli s3transfer jmespath pyparsing wrapt decorator filelock platformdirs pluggy
    iniconfig pytest-cov pytest-mock hypothesis tornado twisted scrapy nltk spacy sympy networkx
    seaborn plotly bokeh dash streamlit gradio xgboost lightgbm catboost react react-dom lodash express
    axios moment chalk commander debug typescript webpack eslint prettier jest mocha chai underscore
    jquery async bluebird uuid dotenv yargs minimist glob rimraf mkdirp fs-extra body-parser cors
    mongoose mongodb socket.io nuxt vite rollup esbuild redux rxjs node-fetch cross-env nodemon ts-node
    semver colors classnames prop-types styled-components tslib core-js electron puppeteer playwright
    jsonwebtoken bcryptjs passport knex sequelize mysql mysql2 ioredis graphql apollo-server zod dayjs
    date-fns inquirer sharp multer helmet morgan winston pino handlebars cheerio minimatch angular
    svelte tailwindcss postcss autoprefixer sass less babel-loader ts-loader vitest cypress nestjs
    fastify koa hapi
"""
WELL_KNOWN = frozenset(_NAMES.split())
# An install command and what it installs, or a package named to be used ("use `x` from PyPI").
_INSTALL = linear(
    r"(?i)\b(?:pip3?|python3?[ \t]+-m[ \t]+pip|uv[ \t]+pip|uv|poetry|pipenv|pdm|npm|yarn|pnpm|bun"
    r"|gem|cargo)[ \t]+(?:install|add|i)\b([^\n;|&`)]*)"
    r"|\b(?:use|install|add|switch[ \t]+to|depend[ \t]+on|pin)[ \t]+[`'\x22]([@\w./-]+)[`'\x22]"
)
_VERSION = linear(r"[<>=!~^;\[@].*$")


def squatted(text: str) -> Iterator[Match]:
    """The install commands (or uses) in ``text`` that name a look-alike of a well-known package."""
    for match in _INSTALL.finditer(text):
        names = (match.group(1) or match.group(2) or "").split()
        if any(_look_alike(_name(raw)) for raw in names if not raw.startswith("-")):
            yield match


def _name(raw: str) -> str:
    """A package argument as its bare name: quotes, versions and extras gone, lower case, ``_`` as ``-``."""
    raw = raw.strip("`'\x22,")
    bare = raw[0] + _VERSION.sub("", raw[1:]) if raw else raw
    return bare.lower().replace("_", "-")


def _look_alike(name: str) -> bool:
    """Whether ``name`` is no well-known package but one edit from one of five letters or more."""
    if not name or name in WELL_KNOWN or "/" in name.lstrip("@") or "." in name.strip("."):
        return False
    return any(len(known) >= 5 and _one_edit(name, known) for known in WELL_KNOWN)


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter changed, added or dropped, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diff) == 1:
            return True
        first, second = diff if len(diff) == 2 else (0, 0)
        return second == first + 1 and a[first] == b[second] and a[second] == b[first]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1 :]
