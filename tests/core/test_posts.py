"""Posts in (issue 17 «Posts in», docs/posts.md): the core reads forum text before any parser.

Each test names the point of the issue it checks: markup read through, quotes and spoilers set
aside, positions mapped back to the original post, prose told from order lines, bold-only
posts, the bounded number reader, the size limit and typo suggestions.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voevoda.core import posts
from voevoda.core.errors import ParseError
from voevoda.core.posts import MAX_DIGITS, MAX_POST_BYTES, NumberError, PostOptions, read, read_int, suggest


def texts(post: posts.Post) -> list[tuple[int, str]]:
    return [(line.number, line.text) for line in post.lines]


def test_bbcode_is_read_through_in_any_case_and_nested() -> None:
    """«BBCode ([b], [B], [i], [u], [s], [color=…], [size=…] …, any case, nested) … read
    through, never mistaken for order text»."""
    post = read("[b]Правый фланг:[/b]\n"
                "[B][I]Авангард[/I][/B] - [color=#ff0000]5 [size=150]копейщиков[/size][/color] и [u]3[/U] рыцаря\n"
                "[s]ход 0201 0202[/s] [COLOR=red][b]налог 3[/b][/COLOR]")
    assert texts(post) == [(1, "Правый фланг:"), (2, "Авангард - 5 копейщиков и 3 рыцаря"),
                           (3, "ход 0201 0202 налог 3")]


def test_markdown_is_read_through() -> None:
    """«Markdown (**, __, *, >) … read through»: emphasis markers go, list bullets go."""
    post = read("**Правый фланг:**\n__Авангард__ - *5* копейщиков\n- ход 0201 -> 0202\n1. налог 3\n"
                "`сбор 0202 2`\n~~роспуск 0405~~")
    assert texts(post) == [(1, "Правый фланг:"), (2, "Авангард - 5 копейщиков"), (3, "ход 0201 -> 0202"),
                           (4, "налог 3"), (5, "сбор 0202 2"), (6, "роспуск 0405")]


def test_asterisks_that_are_not_emphasis_stay() -> None:
    """A lone or in-word asterisk is the player's text («5 * 3», «5*копейщиков»), not markup."""
    post = read("5 * 3\n5*копейщиков, 3*рыцаря")
    assert texts(post) == [(1, "5 * 3"), (2, "5*копейщиков, 3*рыцаря")]


def test_quotes_and_spoilers_are_set_aside() -> None:
    """«Text in quotes and spoilers is not orders (New Worlds will rely on this; make it core)»:
    [quote], [quote="name"], nested quotes, [spoiler=title], Markdown `>` and ||spoilers||."""
    post = read('[quote="Борис"]ход 0303 0304\n[quote]роспуск 0101[/quote] и ещё[/quote]\n'
                "ход 0201 0202 [spoiler=ООС]налог 99[/spoiler] налог 3\n"
                "> роспуск 0405\n"
                "[SPOILER]\nсбор 0202 3\n[/SPOILER]\n"
                "вражда Борис ||мир Борис||")
    assert texts(post) == [(3, "ход 0201 0202"), (3, "налог 3"), (8, "вражда Борис")]
    assert set(post.hidden) >= {1, 2, 3, 4, 5, 6, 7, 8}
    assert not post.notes


def test_an_unclosed_spoiler_hides_the_rest_and_says_so() -> None:
    """A spoiler never closed: the rest of the post is set aside (the player meant to hide it)
    and a note says from where."""
    post = read("ход 0201 0202\n[spoiler]болтовня\nналог 3")
    assert texts(post) == [(1, "ход 0201 0202")]
    (note,) = post.notes
    assert note.line == 2 and "[spoiler]" in note.message_ru and "[spoiler]" in note.message_en


def test_unknown_brackets_are_text() -> None:
    """Brackets that are not a tag a forum knows stay the player's text."""
    assert texts(read("[Правый фланг] [1] [/nope]")) == [(1, "[Правый фланг] [1] [/nope]")]


def test_every_character_maps_back_to_its_line_and_column() -> None:
    """«every character of what remains mapped back to the original line and column»."""
    raw = "Привет!\n\n[b][i]ход[/i][/b] [color=red]0201[/color] ->  **0202**"
    post = read(raw)
    line = post.lines[1]
    assert line.number == 3 and line.text == "ход 0201 ->  0202"
    original = raw.split("\n")[2]
    for index, ch in enumerate(line.text):
        if ch != " ":
            assert original[line.column(index) - 1] == ch
    assert line.column(len(line.text)) == len(original) - 1  # just after «0202», before «**»


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["ход", " ", "0201", "[b]", "[/b]", "[I]", "[/i]", "**", "[color=red]",
                                 "[/color]", "\n", "копейщиков", "*", "__", "[quote]", "[/quote]", ">",
                                 "[spoiler]", "[/spoiler]", "||", "`", "- ", "Правый", "ё"]), max_size=40))
def test_mapping_holds_for_any_mix_of_markup(parts: list[str]) -> None:
    """Whatever the markup, every character a parser reads is the character the player typed
    at the line and column the map gives."""
    raw = "".join(parts)
    original = raw.split("\n")
    for line in read(raw).lines:
        for index, ch in enumerate(line.text):
            if ch != " ":
                assert original[line.number - 1][line.column(index) - 1] == ch


def test_prose_is_split_from_order_lines() -> None:
    """«A line that does not begin like an order is not an error: the echo lists it under "not
    read as orders"» — the split follows the ruleset's predicate."""
    post = read("Всем привет!\nход 0201 0202\n\n-- Анна", begins_order=lambda s: s.startswith("ход"))
    assert [line.text for line in post.orders] == ["ход 0201 0202"]
    assert [(line.number, line.text) for line in post.prose] == [(1, "Всем привет!"), (4, "-- Анна")]


def test_bold_only_posts_count_only_bold_text() -> None:
    """New Worlds 000 II.3: «Указывайте бонус и действия жирным, иначе они не учитываются»; II.4
    «Оставляйте неигровой текст под спойлером»."""
    post = read("Ход страны Альбион\n[b]Постройка города[/b] в Лесном краю (5 очков)\n"
                "**Бонус: +1 за город**\n[spoiler][b]Война с Галлией[/b][/spoiler]\n"
                "[b]Порт[/b] и [b]Университет[/b]", PostOptions(bold_only=True))
    assert [(line.number, line.text) for line in post.orders] == [
        (2, "Постройка города"), (3, "Бонус: +1 за город"), (5, "Порт Университет")]
    assert [(line.number, line.text) for line in post.prose] == [(1, "Ход страны Альбион")]
    assert post.orders[2].column(5) == len("[b]Порт[/b] и [b]") + 1  # «У» of «Университет»


def test_bold_only_lines_without_bold_are_echoed_as_prose() -> None:
    """Issue 17: «every line that is not read as an order is echoed»; in a bold-only game (000
    II.3 «иначе они не учитываются») a line with nothing bold is prose whatever it begins with,
    so that the player sees the order he forgot to put in bold was not counted."""
    post = read("Всем привет!\n[b]город C5[/b]\nпорт C6\n[spoiler]ролл[/spoiler]\n-- Анна",
                PostOptions(bold_only=True), begins_order=lambda s: s.split()[0] in ("город", "порт"))
    assert [(line.number, line.text) for line in post.orders] == [(2, "город C5")]
    assert [(line.number, line.text) for line in post.prose] == [(1, "Всем привет!"), (3, "порт C6"), (5, "-- Анна")]
    assert post.hidden == (4,)
    assert post.prose[1].column(0) == 1


def test_size_limit() -> None:
    """Issue 16: «Posts: a size limit (say 64 KB) with a clear error»."""
    read("x" * MAX_POST_BYTES)
    with pytest.raises(ParseError) as caught:
        read("я" * (MAX_POST_BYTES // 2 + 1))
    (problem,) = caught.value.problems
    assert "64 КБ" in problem.message_ru and "64 KB" in problem.message_en


@pytest.mark.parametrize("token", ["²", "٣", "１２", "1²", "-1", "", "1.5", "9" * 4301])
def test_number_reader_refuses_what_int_cannot_or_should_not_read(token: str) -> None:
    """Issue 16: «налог ² crashes ('²'.isdigit() is true, int() fails) … a number of 4,301 digits
    crashes every parser. Read digits with one shared, bounded number reader.»"""
    with pytest.raises(NumberError) as caught:
        read_int(token)
    assert caught.value.ru and caught.value.en


def test_number_reader_reads_digits_within_bounds() -> None:
    assert read_int("0") == 0 and read_int("007") == 7 and read_int("9" * MAX_DIGITS) == 10**MAX_DIGITS - 1
    with pytest.raises(NumberError, match="at most 3"):
        read_int("4", maximum=3)
    with pytest.raises(NumberError) as caught:
        read_int("1" * 4301)
    assert "4301 цифры" in caught.value.ru  # «из 4301 цифры»: counted noun agrees


def test_suggestions_offer_the_nearest_names_and_never_the_word_itself() -> None:
    """«an unknown unit, order or place name gets the nearest known names as a suggestion
    («копейшиков» → «копейщиков?»). Suggest, never guess silently.»"""
    forms = {form: "spearman" for form in posts.word_forms("копейщик")}
    forms.update({form: "knight" for form in posts.word_forms("рыцарь")})
    assert suggest("копейшиков", forms) == ["копейщиков"]
    assert suggest("РЫЦАРЕЙ", forms) == []  # known (case aside): nothing to suggest
    assert suggest("дракон", forms) == []
    assert posts.did_you_mean(["копейщиков"]) == ("; может быть, «копейщиков»?", "; did you mean 'копейщиков'?")


def test_word_forms_agree_adjectives_and_keep_yo() -> None:
    forms = posts.word_forms("тяжёлый пехотинец")
    assert "тяжёлых пехотинцев" in forms and "тяжёлым пехотинцем" in forms


def test_invisible_characters_are_not_text() -> None:
    """A post saved by Notepad begins with a byte-order mark; text copied from Telegram or
    Discord carries zero-width spaces and joiners, direction marks and soft hyphens. The forum
    shows none of them, so the parser does not read them: «\\ufeffподмога Винтерфелл» is the order
    «подмога Винтерфелл», and a word with a zero-width space inside is one word."""
    raw = "\ufeffподмога Винтерфелл\nподмога Ви\u200bнтер\u00adфелл\u200e\n\u2066ход\u2069 0201\u200d 0202"
    post = read(raw)
    assert texts(post) == [(1, "подмога Винтерфелл"), (2, "подмога Винтерфелл"), (3, "ход 0201 0202")]
    original = raw.split("\n")
    for line in post.lines:
        for index, ch in enumerate(line.text):
            if ch != " ":
                assert original[line.number - 1][line.column(index) - 1] == ch


def test_emoji_are_decoration_not_text() -> None:
    """Players in Discord and Telegram mark their lines with emoji («✅ подмога Винтерфелл»,
    «⚔️ поход …», «1️⃣ …») and end them with one («… 😀»); a custom Discord emoji is written
    <:name:id>. None of it is order text: an emoji is read as a blank, so the line still begins
    like its order and nothing is left over after it. An arrow from an emoji keyboard (➡️, ⇒, ➜)
    is the arrow every game's orders know, «→»."""
    post = read("✅ подмога Винтерфелл\n⚔️ оборона Ров Кейлин 😀\n1️⃣ налог 3\n"
                "🏳️‍🌈🇷🇺 ход 0201 ➡️ 0202 ⇒ 0302 <:pepe:123456789012>\n👍🏽")
    assert texts(post) == [(1, "подмога Винтерфелл"), (2, "оборона Ров Кейлин"), (3, "налог 3"),
                           (4, "ход 0201 →  0202 → 0302")]
    assert post.lines[1].column(0) == 4  # «о» after «⚔», U+FE0F and a blank


def test_a_discord_block_quote_sets_aside_the_rest_of_the_post() -> None:
    """Discord's «>>> » quotes everything after it to the end of the message, not one line."""
    post = read("налог 3\n>>> Борис писал:\nход 0303 0304\nроспуск 0101")
    assert texts(post) == [(1, "налог 3")]
    assert set(post.hidden) >= {2, 3, 4}


def test_xenforo_and_vbulletin_tags() -> None:
    """XenForo's mention, inline spoiler and inline code, and the quote headers of XenForo,
    vBulletin and phpBB: a mention is read through, an inline spoiler is set aside like any
    spoiler, a quote with its post header is a quote."""
    post = read('[USER=12]@Борис[/USER], договорились\n[ISPOILER]налог 99[/ISPOILER] налог 3\n'
                "[ICODE]ход 0201 0202[/ICODE]\n[QUOTE=\"Борис, post: 1234, member: 56\"]роспуск 0101[/QUOTE]\n"
                "[quote=Борис;12345]роспуск 0102[/quote]\n"
                '[quote="Борис" post_id=7 time=1700000000 user_id=3]роспуск 0103[/quote]\n'
                "[MENTION=5]Вера[/MENTION] [member=Глеб]")
    assert texts(post) == [(1, "@Борис, договорились"), (2, "налог 3"), (3, "ход 0201 0202"), (7, "Вера")]
    assert set(post.hidden) >= {2, 4, 5, 6}


def test_a_bold_only_post_names_the_orders_left_without_bold() -> None:
    """000 «II. Механика, 3»: «Указывайте бонус и действия жирным, иначе они не учитываются»: a
    line that begins like an order but has nothing bold is named apart (the echo says it was not
    read for want of bold); a greeting is prose for not beginning like an order."""
    post = read("Всем привет!\n[b]город C5[/b]\nпорт C6\n", PostOptions(bold_only=True),
                begins_order=lambda s: s.split()[0] in ("город", "порт"))
    assert [line.number for line in post.prose] == [1, 3]
    assert post.unbold == (3,)


def test_bold_runs_side_by_side_are_two_runs() -> None:
    """«[b]город C5[/b][b]занять C6[/b]»: two bold runs with nothing between them are read as the
    forum shows two bold phrases, not as one word «C5занять»."""
    post = read("[b]город C5[/b][b]занять C6[/b]\n[B]порт C7[/B][b][i]завод C8[/i][/b]", PostOptions(bold_only=True))
    assert [line.text for line in post.orders] == ["город C5 занять C6", "порт C7 завод C8"]


def test_a_line_bold_in_part_is_echoed_whole() -> None:
    """000 «II. Механика, 3»: in «Город [b]X7[/b]» only «X7» is bold, so the line is no order;
    the echo shows it as the forum does, «Город X7», under the missing bold (it showed «X7»)."""
    post = read("Город [b]X7[/b]\nПривет, [b]друзья[/b]", PostOptions(bold_only=True),
                begins_order=lambda s: s.split()[0].casefold() == "город")
    assert [(line.number, line.text) for line in post.prose] == [(1, "Город X7"), (2, "Привет, друзья")]
    assert post.unbold == (1,)


def test_openers_before_an_order_are_set_aside() -> None:
    """«Я хочу нанять…», «А ещё построить…», «Also hire…»: the words before an order's first word
    (posts.OPENERS, folded: «ещё» is «еще») go; a line that is only such words, or a word that
    merely begins like one («Алиса»), stays."""
    assert posts.without_openers("Я хочу нанять 10 копейщиков") == "нанять 10 копейщиков"
    assert posts.without_openers("А ещё, также построить Барак") == "построить Барак"
    assert posts.without_openers("Also hire 5 wolves") == "hire 5 wolves"
    assert posts.without_openers("Алиса атакует") == "Алиса атакует"
    assert posts.without_openers("я") == "я"


def test_order_lines_are_read_without_openers_and_stops() -> None:
    """Every game reads an order line without the words a player puts before it (posts.OPENERS:
    «Также ход …», «А ещё …») and without the full stop or «!» he ends it with; columns still
    point where the player typed each character, and prose keeps its whole text."""
    post = read("Также ход 0201 0202.\nА ещё налог 3!\nПривет всем!", begins_order=lambda s: s.startswith(("ход", "налог")))
    assert [(line.number, line.text) for line in post.orders] == [(1, "ход 0201 0202"), (2, "налог 3")]
    assert post.orders[0].column(0) == len("Также ") + 1
    assert [line.text for line in post.prose] == ["Привет всем!"]


def test_stems_find_names_written_in_another_case() -> None:
    """«союз с Борисом», «вражда Анне», «пакт с Ромейской державой»: the stem of each word is
    the same in every case, so a name is found without the morphology dictionary."""
    assert posts.stem_key("Борису") == posts.stem_key("Борис") == "борис"
    assert posts.stem_key("Анне") == posts.stem_key("Анна")
    assert posts.stem_key("Ромейской державой") == posts.stem_key("Ромейская держава") == "ромейск держав"
    assert posts.stem("Ян") == "Ян" and posts.stem("Boris") == "Boris"


def test_unicode_spaces_are_spaces() -> None:
    """A no-break space (a forum editor's, a phone keyboard's), a narrow one, a thin one: the
    forum shows a space, and the parser reads one; each keeps its column."""
    post = read("вражда\u00a0Борис\nналог\u202f3\u2009\u00a0")
    assert texts(post) == [(1, "вражда Борис"), (2, "налог 3")]
    assert post.lines[0].column(6) == 7
