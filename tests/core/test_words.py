"""Words that agree (issue 17, «Posts out»: «Russian that a native speaker would post»):
counted nouns, names in every case with their gender, verbs agreeing with their subject,
decimal commas and sensible numbers, and the English equivalents."""

from __future__ import annotations

import pytest

from voevoda.core.errors import GameError
from voevoda.core.words import (
    Names,
    agree,
    count_en,
    count_ru,
    counted,
    counted_list,
    guess_gender,
    inflect_phrase,
    join_and,
    name_in_case,
    noun_forms,
    number,
    past,
    percent,
    plural_en,
    plural_ru,
    read_genders,
    thing_accusative,
    with_name,
)

ROUND = ("раунд", "раунда", "раундов")


@pytest.mark.parametrize(("n", "expected"), [
    (0, "0 раундов"), (1, "1 раунд"), (2, "2 раунда"), (4, "4 раунда"), (5, "5 раундов"),
    (11, "11 раундов"), (12, "12 раундов"), (14, "14 раундов"), (21, "21 раунд"),
    (22, "22 раунда"), (25, "25 раундов"), (101, "101 раунд"), (111, "111 раундов"),
    (112, "112 раундов"), (1004, "1004 раунда"),
])
def test_russian_forms_follow_the_last_digits(n: int, expected: str) -> None:
    assert count_ru(n, ROUND) == expected
    assert counted(n, "раунд") == expected


def test_russian_genitive_forms_after_a_preposition() -> None:
    # «после 1 раунда», «после 5 раундов»
    genitive = ("раунда", "раундов", "раундов")
    assert [plural_ru(n, genitive) for n in (1, 3, 5, 21)] == ["раунда", "раундов", "раундов", "раунда"]
    assert [counted(n, "раунд", case="gent") for n in (1, 3, 5, 21)] == [
        "1 раунда", "3 раундов", "5 раундов", "21 раунда"]


# The issue's own examples, and the unit names of the landed games, checked by a native reader.
@pytest.mark.parametrize(("n", "phrase", "expected"), [
    (20, "копейщик", "20 копейщиков"), (6, "рыцарь", "6 рыцарей"), (2, "целитель", "2 целителя"),
    (3, "монета", "3 монеты"), (1, "монета", "1 монета"), (5, "монета", "5 монет"),
    (2, "низший демон", "2 низших демона"), (5, "низший демон", "5 низших демонов"),
    (21, "низший демон", "21 низший демон"), (3, "всадник на грифоне", "3 всадника на грифонах"),
    (4, "тяжёлый пехотинец", "4 тяжёлых пехотинца"), (2, "огненный град", "2 огненных града"),
    (3, "рыцарь пустоты", "3 рыцаря пустоты"), (3, "конный стрелок", "3 конных стрелка"),
    (3, "просветлённый", "3 просветлённых"), (1, "просветлённый", "1 просветлённый"),
    (3, "голем", "3 голема"), (5, "энт", "5 энтов"), (2, "пешка", "2 пешки"), (5, "пешка", "5 пешек"),
    (2, "ферзь", "2 ферзя"), (5, "кондотьер", "5 кондотьеров"), (22, "владение", "22 владения"),
    (3, "огр-бык", "3 огра-быка"), (5, "огр-бык", "5 огров-быков"), (2, "штаб-квартира", "2 штаб-квартиры"), (2, "низшая каста", "2 низшие касты"), (2, "победное очко", "2 победных очка"),
    (1.5, "монета", "1,5 монеты"),
    # what each rides goes plural with them (issue 30 item 7: «4 всадника на грифоне» read as one griffin)
    (1, "всадник на грифоне", "1 всадник на грифоне"), (21, "всадник на грифоне", "21 всадник на грифоне"),
    (5, "всадник на грифоне", "5 всадников на грифонах"),
])
def test_counted_nouns_agree_with_the_number(n: float, phrase: str, expected: str) -> None:
    assert counted(n, phrase) == expected


def test_counted_nouns_in_other_cases() -> None:
    assert counted(5, "рыцарь", case="gent") == "5 рыцарей"      # «от 5 рыцарей»
    assert counted(3, "рыцарь", case="datv") == "3 рыцарям"      # «к 3 рыцарям»
    assert counted(1, "рыцарь", case="datv") == "1 рыцарю"
    assert counted(2, "низший демон", case="ablt") == "2 низшими демонами"
    assert counted(2, "рыцарь", case="accs") == "2 рыцарей"      # «убил 2 рыцарей» (animate)
    assert counted(2, "пушка", case="accs") == "2 пушки"         # inanimate: as the nominative
    # a creature the dictionary reads only as a prefix and a thing («камне» + «рог»): animate
    # (issue 30 item 8: «нанять 1 камнерог»)
    assert counted(1, "камнерог", case="accs") == "1 камнерога"
    assert counted(2, "камнерог", case="accs") == "2 камнерогов"
    assert counted(3, "кровогриф", case="accs") == "3 кровогрифов"
    assert counted(2, "Богороща") == "2 Богорощи"
    assert inflect_phrase("низший демон", "gent") == "низшего демона"
    assert noun_forms("копейщик") == ("копейщик", "копейщика", "копейщиков")
    assert agree(11, "копейщик") == "копейщиков"


def test_a_list_of_counted_nouns_reads_as_a_sentence() -> None:
    assert counted_list({"копейщик": 20, "рыцарь": 6, "целитель": 2}) == "20 копейщиков, 6 рыцарей и 2 целителя"
    assert counted_list({"spearman": 20, "knight": 6, "healer": 1}, "en") == "20 spearmen, 6 knights and 1 healer"
    assert counted_list({}) == "никого" and counted_list({"рыцарь": 0}, nothing="—") == "—"
    assert join_and(["а"]) == "а" and join_and(["a", "b"], "en") == "a and b"


@pytest.mark.parametrize(("n", "expected"), [(0, "0 rounds"), (1, "1 round"), (2, "2 rounds")])
def test_english_forms(n: int, expected: str) -> None:
    assert count_en(n, "round") == expected


def test_english_plurals() -> None:
    assert count_en(3, "army", "armies") == "3 armies"
    assert [plural_en(w) for w in ("Spearman", "army", "Hero", "wolf", "Enlightened", "Condottiere", "Archer")] == [
        "Spearmen", "armies", "Heroes", "wolves", "Enlightened", "Condottieri", "Archers"]
    assert plural_en("rider on a griffin") == "riders on a griffin"
    assert counted(3, "coin", "en") == "3 coins" and counted(1, "coin", "en") == "1 coin"


def test_numbers_as_each_language_writes_them() -> None:
    assert number(8.8, signed=True) == "+8,8" and number(8.8, "en", signed=True) == "+8.8"
    assert number(261.0) == "261"                   # «урон 261», not «261.0»
    assert number(-3) == "−3" and number(-3, "en") == "-3"
    assert number(0.04) == "0" and number(-0.04) == "0"
    assert number(12345) == "12\u00a0345" and number(12345, "en") == "12,345" and number(1500) == "1500"
    assert number(2.25, digits=2) == "2,25" and number(2.5) == "2,5"
    assert percent(12.5) == "12,5%" and percent(10, signed=True) == "+10%"


@pytest.mark.parametrize(("name", "gender", "gent", "datv"), [
    ("Анна", "f", "Анны", "Анне"), ("Борис", "m", "Бориса", "Борису"), ("Вера", "f", "Веры", "Вере"),
    ("Никита", "m", "Никиты", "Никите"), ("Ольга", "f", "Ольги", "Ольге"), ("Илья", "m", "Ильи", "Илье"),
    ("Любовь", "f", "Любови", "Любови"), ("Анна Петрова", "f", "Анны Петровой", "Анне Петровой"),
])
def test_player_names_decline_with_their_gender(name: str, gender: str, gent: str, datv: str) -> None:
    names = Names()
    assert names.gender(name) == gender
    assert names.case(name, "gent") == gent          # «доход Анны»
    assert names.case(name, "datv") == datv          # «вражда к Борису»


def test_verbs_agree_with_the_player() -> None:
    names = Names()
    assert names.act("Анна", "захватил") == "Анна захватила"
    assert names.act("Борис", "захватил") == "Борис захватил"
    assert names.act("Вера", "сдался") == "Вера сдалась"
    assert past("выбыл", "f") == "выбыла" and past("пришёл", None, plural=True) == "пришли"
    assert names.act("Вера", "не прислал") == "Вера не прислала"
    assert names.adjective("Анна", "ранен") == "ранена"


@pytest.mark.parametrize(("name", "accusative"), [
    ("Оружейная мастерская", "Оружейную мастерскую"), ("Часовня", "Часовню"), ("Цитадель боли", "Цитадель боли"),
    ("Темница для пыток", "Темницу для пыток"), ("Барак", "Барак"), ("Фермерские угодья", "Фермерские угодья"),
    ("Поля грифонов", "Поля грифонов"), ("Зачарованные леса", "Зачарованные леса"),
    ("Святилище природы", "Святилище природы"), ("Сделка с дьяволом", "Сделку с дьяволом"),
])
def test_a_thing_takes_the_accusative_as_the_object_of_a_verb(name: str, accusative: str) -> None:
    """«построить Оружейную мастерскую», «построить Барак» (not the animate «Барака»)."""
    assert thing_accusative(name) == accusative


def test_names_that_say_nothing_of_gender_are_introduced_by_player() -> None:
    names = Names()
    assert guess_gender("Саша") is None and guess_gender("Dragon77") is None
    assert names.act("Саша", "захватил") == "Игрок Саша захватил"
    assert names.act("Dragon77", "захватил") == "Игрок Dragon77 захватил"
    assert names.case("Dragon77", "gent") == "игрока Dragon77"
    assert names.case("Dragon77", "datv") == "игроку Dragon77"


def test_the_game_config_sets_a_players_gender() -> None:
    genders = read_genders({"Саша": "ж", "Dragon77": "m", "Рагнар": "m"}, ["Саша", "Dragon77", "Рагнар"])
    names = Names(genders)
    assert names.act("Саша", "захватил") == "Саша захватила"
    assert names.case("Саша", "gent") == "Саши"
    assert names.act("Dragon77", "захватил") == "Dragon77 захватил"
    assert names.case("Dragon77", "gent") == "игрока Dragon77"   # not Russian: not declined
    assert names.case("Рагнар", "gent") == "Рагнара"


def test_bad_genders_in_the_config_are_clear_errors() -> None:
    with pytest.raises(GameError, match="нет игрока «Вася»"):
        read_genders({"Вася": "m"}, ["Анна"])
    with pytest.raises(GameError, match="m или f"):
        read_genders({"Анна": "she"}, ["Анна"])
    with pytest.raises(GameError, match="таблица"):
        read_genders(["Анна"], ["Анна"])
    assert read_genders(None, ["Анна"]) == {}


def test_english_names() -> None:
    names = Names(lang="en")
    assert names.act("Anna", "captured") == "Anna captured"
    assert names.case("Anna", "gent") == "Anna's" and names.case("Boris", "datv") == "Boris"
    assert names.many(["Anna", "Boris", "Vera"]) == "Anna, Boris and Vera"
    assert Names().many(["Анна", "Борис"], "gent") == "Анны и Бориса"


@pytest.mark.parametrize(("name", "case", "form"), [
    ("Борис", "ablt", "Борисом"), ("Анна", "accs", "Анну"), ("Анна", "gent", "Анны"),
    ("Ромейская держава", "ablt", "Ромейской державой"), ("Ромейская держава", "accs", "Ромейскую державу"),
    ("Морские Народы", "ablt", "Морскими Народами"), ("Морские Народы", "gent", "Морских Народов"),
    ("Староверы (Анна)", "datv", "Староверам (Анна)"), ("Улус Ветра", "gent", "Улуса Ветра"),
    ("Великий Каганат", "ablt", "Великим Каганатом"), ("Alice", "ablt", "Alice"), ("Борис", "nomn", "Борис"),
    # a first word that is an adjective makes a country's name, not a person's (issue 29 item 4)
    ("Новая Вера", "ablt", "Новой Верой"), ("Новая Вера", "gent", "Новой Веры"), ("Новая Вера", "accs", "Новую Веру"),
    # invented feminine names in «-а», «-я», «-ия», alone or after adjectives
    ("Ромея", "ablt", "Ромеей"), ("Новая Ромея", "gent", "Новой Ромеи"), ("Новая Ромея", "accs", "Новую Ромею"),
    ("Тартария", "datv", "Тартарии"), ("Гиперборея", "ablt", "Гипербореей"), ("Вольха", "gent", "Вольхи"),
    # an adjective after its noun agrees with it
    ("Царство Польское", "gent", "Царства Польского"), ("Царство Польское", "ablt", "Царством Польским"),
    # players' names of every kind
    ("Любовь", "ablt", "Любовью"), ("Илья", "gent", "Ильи"), ("Никита", "datv", "Никите"), ("Саша", "ablt", "Сашей"),
    ("Анна Петрова", "gent", "Анны Петровой"),
    # a name the dictionary does not know, in a vowel and «й» (a house of Thrones, as «герой»)
    ("Грейджой", "ablt", "Грейджоем"), ("Грейджой", "datv", "Грейджою"), ("Грейджой", "gent", "Грейджоя"),
])
def test_a_name_after_a_preposition(name: str, case: str, form: str) -> None:
    """A person's or a country's name in the case a preposition asks for («союз с Борисом»,
    «атака на Ромейскую державу», «с Морскими Народами»: a plural name stays plural); a name
    the dictionary cannot read stays as written."""
    assert name_in_case(name, case) == form


@pytest.mark.parametrize(("name", "phrase"), [
    ("Борис", "с Борисом"), ("Вера", "с Верой"), ("Ромейская держава", "с Ромейской державой"),
    ("Староверы (Анна)", "со Староверами (Анна)"), ("Швеция", "со Швецией"), ("Сербия", "с Сербией"),
    ("Alice", "с Alice"), ("Старк", "со Старком"), ("Грейджой", "с Грейджоем"),
])
def test_with_a_name(name: str, phrase: str) -> None:
    """«с» and the instrumental, «со» before с, з, ш, ж, щ and a consonant («со Староверами»)."""
    assert with_name(name) == phrase
