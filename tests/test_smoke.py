def test_outline_lists_sections(client, ipg):
    response = client.get("/en/")
    assert response.status_code == 200
    assert b"Hidden Card Error" in response.content


def test_browser_opens_section(live_ipg, new_page):
    page = new_page()
    page.goto(f"{live_ipg.url}/en/ipg/2.3/#example-c")
    assert page.locator("#example-c").is_visible()
