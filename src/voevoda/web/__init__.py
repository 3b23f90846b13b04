"""The web app (``voevoda serve``): pages for players and game masters, the JSON API, static
files. It calls only :mod:`voevoda.service`; see :mod:`voevoda.web.app` and docs/web.md."""
