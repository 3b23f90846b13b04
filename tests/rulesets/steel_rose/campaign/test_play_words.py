"""A first turn played as players post it on a forum, read back as a game master would publish
it (002_c01e70bb146ed8cc.txt, «Бой делится на четыре фазы ... 1 с расстановкой и 1 с
планированием», «При попытке захвата города противник будет вынужден сначала победить
гарнизон»; issue 19 «Orders», «Reports»): the echo names buildings and units in the case the verb
wants, the battle posts are echoed squad by squad with their lines, the prompts and the chronicle
name the battles, both deployments are in the report for the planning post, and a city's
garrison that holds stays in the city instead of «returning to the army»."""

from __future__ import annotations

import functools

from voevoda.core.engine import Game

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья"]
ORDERS = {
    "Анна": ("Всем привет! Ход Империи :)\n\n[b]Города:[/b]\n\n[b]Авенталь (1 ур.) (Большой)[/b]\nДоход: 300з\n"
             "Постройки: Барак, часовня\nГордрим (1 ур.) (Малый)\nДоход: 150з\nПостройка: ...\n---------------\n"
             "СУММАРНЫЙ ДОХОД В ХОД: 750з\n\nнанять 10 копейщиков, 2 лучника\n"
             "АРМИЯ 1: все — атака Хольмгарда (колонизировать)\nСпасибо!"),
    "Борис": ("Добрый день.\n[list]\n[*]Построить оружейную мастерскую в Ормисе\n[*]построить Мануфактуру в Ормис\n"
              "[*]построить барак в ормисе\n[/list]\nНанять 8 щитовиков\nАрмия 1: все - оборона Хольмгард"),
    "Глеб": "Построить Убежище культистов в Морвене\nНанять 3 культиста\nАрмия 1: все — атака Вельмар (разграбить)",
    "Дарья": "передвижной город: Тарнбург — Лунный Лес\nНанять 12 огров-быков\nАрмия 1: все — рассредоточиться",
}
DEPLOYMENTS = {
    "Анна": ("[b]Битва за Хольмгард:[/b]\nЦентральный фланг:\nАвангард - 10 копейщиков\nАрьергард - 2 лучника\n\n"
             "Битва за Вельмар — гарнизон по умолчанию"),
    "Борис": "битва за хольмгард:\nЦентральный фланг:\nАвангард - 8 щитовиков",
}


def echo(game: Game, player: str, text: str) -> list[str]:
    receipt = game.check_post(player, text)
    return [f"{o.line}: {game.ruleset.describe(o, 'ru')}" for o in receipt.orders]


@functools.cache
def played() -> tuple[Game, dict[str, list[str]], dict[str, str], str]:
    """Turn 1 up to the planning step (echoes, prompts and Анна's report there), then to its end."""
    # The turn these cases read was played, and its texts reviewed, under dice procedure 1.
    game = Game.create("steel-rose", "forum", PLAYERS, seed="forum-turn", dice_procedure=1)
    echoes = {p: echo(game, p, t) for p, t in ORDERS.items()}
    for player, text in ORDERS.items():
        game.submit(player, text)
    game.resolve(force=True)
    prompts = {p: prompt.text_ru for p, prompt in game.ruleset.awaiting(game.state).items()}
    echoes.update({f"{p}/deployment": echo(game, p, t) for p, t in DEPLOYMENTS.items()})
    for player, text in DEPLOYMENTS.items():
        game.submit(player, text)
    game.resolve(force=True)
    planning = game.report("Анна", 1, "text", "ru")
    while game.state["turn"] == 1:
        game.resolve(force=True)
    return game, echoes, prompts, planning


def test_the_echo_puts_buildings_and_units_in_the_verbs_case() -> None:
    """«построить Оружейную мастерскую», not «Оружейная мастерская»; «12 огров-быков» as the
    document writes «Огры-быки»; a masculine building stays («Барак»)."""
    _game, echoes, _prompts, _report = played()
    assert "3: построить Оружейную мастерскую в городе Ормис" in echoes["Борис"]
    assert "4: построить Мануфактуру в городе Ормис" in echoes["Борис"]
    assert "5: построить Барак в городе Ормис" in echoes["Борис"]
    assert "2: нанять 12 огров-быков" in echoes["Дарья"]
    assert "7: город Авенталь: постройки Барак, Часовня — построить Барак (−150з), Часовню (−100з)" in echoes["Анна"]


def test_battle_posts_are_echoed_squad_by_squad_on_their_lines() -> None:
    """A deployment is echoed as the player wrote it, per battle, on the line it starts, each battle
    named by its attacker (a city attacked by two factions has two battles, and one block of a
    post for the city answers both: issue 30, item 8); a remark after the battle's heading
    («— гарнизон по умолчанию») leaves that battle to the standing placement instead of refusing
    the post."""
    _game, echoes, _prompts, _report = played()
    assert echoes["Анна/deployment"] == [
        "2: битва за Хольмгард (атака Империи) — центральный авангард: 10 копейщиков; центральный арьергард: "
        "2 лучника"]
    assert echoes["Борис/deployment"] == ["2: битва за Хольмгард (атака Империи) — центральный авангард: 8 щитовиков"]


def test_prompts_name_each_battle() -> None:
    _game, _echoes, prompts, _report = played()
    assert prompts["Анна"] == "Расстановка для битв за Вельмар и Хольмгард"
    assert prompts["Глеб"] == "Расстановка для битвы за Вельмар"


def test_the_planning_report_shows_both_deployments_and_the_chronicle_names_the_battles() -> None:
    """«Планирование: Вы узнаёте расстановку войск противника, а он узнаёт вашу расстановку»."""
    _game, _echoes, _prompts, report = played()
    lines = [line.strip().removeprefix("- ") for line in report.splitlines()]
    start = lines.index("== Битва за Хольмгард: расстановки ==")
    assert lines[start + 1:start + 6] == ["Империя", "центральный авангард: 10 копейщиков",
                                          "центральный арьергард: 2 лучника", "Княжество стальной розы",
                                          "центральный авангард: 8 щитовиков"]
    assert "Битва за Вельмар: Культ пустоты против Империи" in lines
    assert "Золото: 300з" in lines  # 750 − 250 − 200, before the turn's end
    assert "Вера не прислала приказов: применены приказы по умолчанию." in lines  # the orders step
    assert "Глеб не прислал приказов: применены приказы по умолчанию." in lines  # the deployment step


def test_a_garrison_that_holds_stays_in_the_city() -> None:
    """Three cultists against Вельмар's garrison: the garrison holds, and its survivors stay in
    the city («Ваша фракция определяет гарнизон поселения»: they are no army's); an attacking
    army's survivors return to the army; a garrison that falls with its city brings nobody back."""
    game, _echoes, _prompts, _report = played()
    for lang, stays, back in (("ru", "гарнизон остаётся в городе: ", "возвращаются в армию: "),
                              ("en", "the garrison stays in the city: ", "return to the army: ")):
        text = game.report("Анна", 1, "text", lang)
        velmar = text[text.index("== Битва за Вельмар ==" if lang == "ru" else "== Battle for Velmar =="):]
        velmar = velmar[:velmar.index("Все раунды" if lang == "ru" else "Every round")]
        held = [line.strip() for line in velmar.splitlines() if stays in line]
        assert len(held) == 1 and ("копейщик" in held[0] or "spearm" in held[0])
        assert back not in velmar.split(stays)[1]
        holmgard = text[text.index("== Битва за Хольмгард ==" if lang == "ru" else "== Battle for Holmgard =="):]
        assert back in holmgard and stays not in holmgard.split("Все раунды" if lang == "ru" else "Every round")[0]
        # the fallen garrison's side is told what became of it, not left a bare name
        outcome = holmgard.split("Все раунды" if lang == "ru" else "Every round")[0]
        assert ("защитники пали вместе с городом" if lang == "ru" else "the defenders fell with the city") in outcome
        lines = outcome.splitlines()
        bare = [line for line, after in zip(lines, [*lines[1:], ""], strict=True)
                if line in ("- Борис", "- Анна") and not after.startswith("    - ")]
        assert not bare, bare
    assert game.state["cities"]["velmar"]["owner"] == "empire"
    assert game.state["cities"]["holmgard"]["owner"] == "empire"


def test_a_city_stands_in_the_accusative_after_za() -> None:
    """«Битва за Чёрную Топь», «за Парящую крепость», «за Сильванию»; masculine names stay."""
    from voevoda.rulesets.steel_rose.campaign.report import city_accusative

    assert [city_accusative(n) for n in ("Чёрная Топь", "Парящая крепость", "Сильвания", "Эльдаран",
                                         "Пик кошмаров", "Лунный Лес")] == [
        "Чёрную Топь", "Парящую крепость", "Сильванию", "Эльдаран", "Пик кошмаров", "Лунный Лес"]


def test_the_next_turns_map_says_whose_battles_it_draws() -> None:
    """In turn 2's orders the map still marks turn 1's attacks and battles: its subtitle and
    legend name that turn instead of «этого хода»."""
    game, _echoes, _prompts, _report = played()
    assert game.state["turn"] == 2
    for lang, says in (("ru", "атаки и битвы хода 1"), ("en", "attacks and battles of turn 1")):
        svg = str(game.map_svg("Анна", lang))
        assert says in svg and ("битва хода 1" in svg or lang == "en")


def test_the_chronicle_tells_a_fought_battle_once_and_battles_nest_under_their_title() -> None:
    game, _echoes, _prompts, _report = played()
    text = game.report("public", 1, "text", "ru")
    assert "Битва за Вельмар: Культ пустоты против Империи" not in text
    assert "Культ пустоты атаковал город Вельмар (Империя): город отбился" in text
    markdown = game.report("Анна", 1, "markdown", "en")
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    at = headings.index("### Battle for Velmar")
    assert headings[at + 1] == "#### Deployment"


def test_a_refusal_names_what_is_short() -> None:
    """«Небесное благоволение (200м)» with the first turn's 100 mana: the refusal says mana is
    short, by how much."""
    game = Game.create("steel-rose", "short", PLAYERS, seed="short")
    post = "Нанять 5 волков\nАрмия 1: все — рассредоточиться\nЗаклинание: Небесное благоволение — армия 1"
    problems = game.ruleset.validate(game.state, "Вера", game.ruleset.parse(post, "Вера", game.state))
    assert any("не хватает маны: нужно 200, есть 100" in p.message_ru and "not enough mana: 200 needed, 100 held"
               in p.message_en for p in problems), problems


def test_show_reads_as_a_summary_not_the_views_keys() -> None:
    """``voevoda show``: a player reads his treasury, units, cities and battles, then the public
    map; the view's internal keys are not printed, and the public sees no treasury («Игрокам
    НЕдоступна ... Баланс противников»)."""
    from voevoda.core import outputs

    game, _echoes, _prompts, _report = played()
    anna = outputs.show_text(game, "Анна")
    for wanted in ("Империя (Анна)", "золото / gold: ", "честь / honour: ", "уничтожить / destroy Княжество стальной розы",
                   "армия / army 1 (прошлый ход / last turn)", "Битвы прошлого хода / last turn's battles:",
                   "битва за Вельмар (оборона / defence, прошлый ход / last turn):", "Вельмар: Империя; малый / small"):
        assert wanted in anna, wanted
    for internal in ("float_streak", "quest_void", "cursed_gold_uses", "empire/1"):
        assert internal not in anna, internal
    public = outputs.show_text(game, "public")
    assert "золото / gold" not in public and "Фракции / factions:" in public


def test_the_bots_battle_posts_and_the_ledger_read_as_written_by_hand() -> None:
    """A computer opponent's deployment counts its units as the document's template does
    («Авангард - 5 копейщиков и 3 рыцаря»), and the ledger says where a resource came from."""
    from voevoda.rulesets.steel_rose.battle.model import SquadInput
    from voevoda.rulesets.steel_rose.battle.posts import write_deployment

    game, _echoes, _prompts, _report = played()
    rules = game.ruleset.campaign.rules  # type: ignore[attr-defined]
    text = write_deployment([SquadInput("centre.vanguard", {"lesser_demon": 4, "cultist": 6}),
                             SquadInput("centre.rearguard", {"enlightened": 2})], rules)
    assert text == "Центральный фланг:\nАвангард - 4 низших демона, 6 культистов\nАрьергард - 2 просветлённых"
    anna = game.report("Анна", 1, "text", "ru")
    assert "производство: Часовня (Авенталь)" in anna


def test_the_silent_players_of_a_step_share_one_line() -> None:
    game = Game.create("steel-rose", "silent", PLAYERS, seed="silent")
    game.resolve(force=True)
    text = game.report("public", 1, "text", "ru")
    assert "Не прислали приказов: Анна, Борис, Вера, Глеб и Дарья — применены приказы по умолчанию." in text
    assert "Анна, Борис, Вера, Глеб and Дарья sent no orders: default orders were applied." in game.report(
        "public", 1, "text", "en")
