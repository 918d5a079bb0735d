"""`{% squeeze %}`: the template's own line breaks and indentation are not sent, where HTML shows no space for them."""

from django.template import Context, Template


def squeezed(source, **context):
    return Template("{% load ipg %}{% squeeze %}" + source + "{% endsqueeze %}").render(Context(context))


def test_the_indentation_between_two_tags_is_dropped():
    assert squeezed("<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>") == "<ul><li>a</li><li>b</li></ul>"


def test_a_line_break_beside_a_block_tag_is_dropped_across_template_tags():
    source = "{% for t in texts %}\n  <div>{{ t }}</div>\n{% endfor %}\n<p>end</p>"
    assert squeezed(source, texts=["a", "b"]) == "<div>a</div><div>b</div><p>end</p>"


def test_a_line_break_beside_an_inline_tag_stays_the_space_it_was():
    source = '<a href="/">Outline</a>\n  {% if more %}<a href="/next/">Next</a>{% endif %}'
    assert squeezed(source, more=True) == '<a href="/">Outline</a>\n<a href="/next/">Next</a>'
    assert squeezed("<span>Column 1</span>\n  {{ name }}", name="x") == "<span>Column 1</span>\nx"


def test_what_a_variable_outputs_is_never_squeezed():
    assert squeezed("<div>{{ text }}</div>", text="a\n  <p>b</p>") == "<div>a\n  &lt;p&gt;b&lt;/p&gt;</div>"
    assert squeezed("<p>{{ text|safe }}</p>", text="<em>a</em>\n\n<p>b</p>") == "<p><em>a</em>\n\n<p>b</p></p>"
