"""50 distinct searches in the three interface languages, as readers ask them (none names a section: each lists
results), shared by `make bench-load` (search pages under load) and bench/search_view_bench.py."""

from urllib.parse import urlencode

MIX = {
    "en": [
        "Dark Confidant",
        "mulligan",
        "library",
        "scry",
        "hidden card",
        "scried",
        "mulliganed",
        "drew four cards",
        "scry two cards",
        "shuffling",
        "mulligna",
        "librery",
        "eight cards in opening hand",
        "player forgot to reveal card",
        "Dark Confidant mulligan",
        "warning",
        "reveal",
    ],
    "zh-hans": [
        "手札",
        "占卜",
        "警告",
        "公开",
        "黑暗亲信",
        "再调度",
        "黑暗親信",
        "展示手牌",
        "再調度",
        "非公開牌張",
        "誘發",
        "先手抓牌",
        "手牌太多",
        "忘记展示黑暗亲信",
        "牌库",
        "抓牌",
        "判罚",
    ],
    "ja": [
        "占",
        "札",
        "腹",
        "誘",
        "誘発",
        "闇の腹心",
        "非公開カード",
        "ライブラリー",
        "マリガン",
        "手札が多すぎる",
        "闇の腹心を公開しなかった",
        "警告",
        "ドロー",
        "公開",
        "カード",
        "切り直し",
    ],
}


def urls():
    """The 50 search pages' addresses, as the site's form writes them."""
    return [f"/{code}/search/?{urlencode({'q': text})}" for code, texts in MIX.items() for text in texts]
