def run():
    return [
        "hello World".capitalize(),
        "HELLO".capitalize(),
        "123abc".capitalize(),
        " lead".capitalize(),
        "ǆungla".capitalize(),
        "ßeta".capitalize(),
        "".capitalize(),
        "Hello World".swapcase(),
        "ß".swapcase(),
        "İi".swapcase(),
        "aBc123Δδ".swapcase(),
        "ﬁ".swapcase(),
    ]
