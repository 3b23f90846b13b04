"""The games. Each subpackage exposes ``RULESET``; :mod:`voevoda.core.registry` finds them."""
