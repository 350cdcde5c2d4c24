"""The line the Python tests print for a call that mla may refuse:
`NAME: accepted`, or `NAME: MlaError: message`."""

import mla


def report(name, call):
    try:
        call()
    except mla.MlaError as e:
        print(f"{name}: MlaError: {e}")
    else:
        print(f"{name}: accepted")
