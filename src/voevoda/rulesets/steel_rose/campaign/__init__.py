"""Война Стальной Розы, the campaign (``steel-rose``): five asymmetric factions, their cities,
economies, unique resources, spells, rituals, epochs and victory conditions, with every battle
fought by the battle engine of :mod:`voevoda.rulesets.steel_rose.battle`.

Modules, in the order a turn uses them: :mod:`.data` (rules as data), :mod:`.state` (the state
and its invariants), :mod:`.orders` (posts read), :mod:`.economy`, :mod:`.actions`,
:mod:`.battles`, :mod:`.turn` (the turn, step by step), :mod:`.views` (secrets cut),
:mod:`.report`, :mod:`.svgmap`, :mod:`.bots`, :mod:`.simulate`; :mod:`.ruleset` ties them to the
core engine.
"""
