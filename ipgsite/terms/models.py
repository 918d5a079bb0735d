"""The IPG's termbase: infraction names, game terms and card names in each language, and where the text uses them."""

from django.contrib.contenttypes.fields import GenericRelation
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, Found, FoundQuerySet, Paragraph

term_key_validator = RegexValidator(
    KEY_PATTERN, _("A term's key is lowercase letters and digits joined by hyphens, e.g. hidden-card-error.")
)


class Kind(models.TextChoices):
    INFRACTION = "infraction", _("Infractions")
    GAME_TERM = "game-term", _("Game terms")
    CARD = "card", _("Cards")


class TermQuerySet(models.QuerySet):
    def in_glossary_order(self):
        """By kind (infractions, game terms, cards), then in the order content/terms.toml lists them."""
        kinds = models.Case(*(models.When(kind=k, then=i) for i, k in enumerate(Kind.values)))
        return self.order_by(kinds, "order", "key")


class Term(models.Model):
    """One concept of the IPG, named in each language where the texts name it.

    `name`, `variants` and `inflections` have a column per language (django-modeltranslation). Variants are other
    forms the texts attest (abbreviations, former names, inflected forms), one per line; inflections are grammatical
    forms of a name that the texts need not contain (drew for draw). `not_in` lists, per language, the phrases in
    which a name means something else ("with one hand" is no player's hand): no occurrence is found inside them.
    Names change only through `editing.writing`, like paragraphs: with statuses, history, rights and the
    lost-update check.
    """

    key = models.CharField(max_length=64, unique=True, validators=[term_key_validator], verbose_name=_("key"))
    kind = models.CharField(max_length=20, choices=Kind.choices, verbose_name=_("kind"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("order"))
    name = models.CharField(max_length=200, blank=True, verbose_name=_("name"))
    variants = models.TextField(
        blank=True, help_text=_("Other forms of the name in the texts, one per line."), verbose_name=_("variants")
    )
    inflections = models.TextField(
        blank=True,
        help_text=_("Grammatical forms of the name the texts need not contain, one per line."),
        verbose_name=_("inflections"),
    )
    defined_in = models.ForeignKey(
        Paragraph,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="defined_terms",
        help_text=_("The paragraph that defines it, where the IPG has one: its text is the term's definition."),
        verbose_name=_("defined in"),
    )
    found = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("Where each name and variant was found: {name: [locations]}."),
        verbose_name=_("found"),
    )
    attested_by_variants = models.JSONField(
        default=list,
        blank=True,
        help_text=_("The languages whose name the texts hold only in its variants (scry: scries, scried)."),
        verbose_name=_("attested by variants"),
    )
    not_in = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("Phrases in which a name means something else and is no occurrence: {language: [phrases]}."),
        verbose_name=_("not in"),
    )
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("revision"))

    objects = TermQuerySet.as_manager()

    # Written through ipgsite.editing (terms/editing.py): each name's status per language, and the history.
    statuses = GenericRelation("translations.Status", related_query_name="term")
    changes = GenericRelation("translations.Change", related_query_name="term")

    class Meta:
        ordering = ["order", "key"]
        verbose_name = _("term")
        verbose_name_plural = _("terms")

    def __str__(self):
        return self.name_en or self.key

    def get_absolute_url(self):
        from django.urls import reverse

        return f"{reverse('terms:glossary')}#{self.key}"

    def name_in(self, code):
        return languages.translated(self, "name", code)

    def variants_in(self, code):
        return forms_of(languages.translated(self, "variants", code))

    def inflections_in(self, code):
        return forms_of(languages.translated(self, "inflections", code))

    def not_in_phrases(self, code):
        return list((self.not_in or {}).get(code, []))


def forms_of(text):
    """The forms listed one per line in a variants or inflections field."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


class OccurrenceQuerySet(FoundQuerySet):
    def of_term(self, term):
        return self.filter(term=term)


class Occurrence(Found):
    """A term found in one language of a paragraph's text or of a note on it, by one of its names or variants (where
    it is: `Found`)."""

    term = models.ForeignKey(Term, on_delete=models.CASCADE, related_name="occurrences", verbose_name=_("term"))

    objects = OccurrenceQuerySet.as_manager()

    class Meta(Found.Meta):
        verbose_name = _("occurrence")
        verbose_name_plural = _("occurrences")
        indexes = [models.Index(fields=["term", "paragraph"])]

    def __str__(self):
        return f"{super().__str__()} → {self.term.key}"
