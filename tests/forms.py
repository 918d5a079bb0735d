"""A page's form as a browser would submit it, for the tests that post to a live server over HTTP."""

from html.parser import HTMLParser


class FormFields(HTMLParser):
    """The fields a browser would submit from the page's main form, as they are."""

    def __init__(self, form_id):
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, []
        self.textarea = self.select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or a.get("disabled") is not None:
            return
        if tag == "input" and a.get("name") and a.get("type", "text") not in {"submit", "button", "file", "image"}:
            if a.get("type") not in {"checkbox", "radio"} or "checked" in a:
                self.fields.append([a["name"], a.get("value", "on" if a.get("type") == "checkbox" else "")])
        elif tag == "textarea" and a.get("name"):
            self.textarea = [a["name"], ""]
            self.fields.append(self.textarea)
        elif tag == "select" and a.get("name"):
            self.select = {"name": a["name"], "first": None, "chosen": []}
        elif tag == "option" and self.select is not None:
            value = a.get("value", "")
            self.select["first"] = value if self.select["first"] is None else self.select["first"]
            if "selected" in a:
                self.select["chosen"].append(value)

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "textarea" and self.textarea is not None:
            self.textarea[1] = self.textarea[1].removeprefix("\n")
            self.textarea = None
        elif tag == "select" and self.select is not None:
            for value in self.select["chosen"] or [self.select["first"] or ""]:
                self.fields.append([self.select["name"], value])
            self.select = None


def form_fields(html, form_id):
    parser = FormFields(form_id)
    parser.feed(html)
    return parser.fields
