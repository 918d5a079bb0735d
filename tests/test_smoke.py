def test_outline_lists_sections(client, ipg):
    response = client.get("/en/")
    assert response.status_code == 200
    assert b"Hidden Card Error" in response.content
