#!/usr/bin/env python3
"""Writes Sources/Bots/Resources/bot-drawings.json: the sample drawings bots draw on a
fresh install, before people have drawn (and rated) drawings of their own.

Each drawing is a few strokes of simple shapes on the standard 800 x 600 canvas, with a
little seeded jitter so it looks hand-drawn, and the word it shows in each of the eight
languages (every word is checked against that language's built-in list). Run it again
after changing a shape: `python3 scripts/make-bot-drawings.py`. Deterministic.
"""
import json
import math
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "Bots", "Resources", "bot-drawings.json")
LISTS = os.path.join(ROOT, "Sources", "Rooms", "Resources")
LANGS = ["en", "de", "fr", "es", "pt", "it", "ru", "ar"]

WORDS = {
    "sun": ["sun", "Sonne", "soleil", "sol", "sol", "sole", "солнце", "شمس"],
    "house": ["house", "Haus", "maison", "casa", "casa", "casa", "дом", "بيت"],
    "tree": ["tree", "Baum", "arbre", "árbol", "árvore", "albero", "дерево", "شجرة"],
    "star": ["star", "Stern", "étoile", "estrella", "estrela", "stella", "звезда", "نجمة"],
    "fish": ["fish", "Fisch", "poisson", "pez", "peixe", "pesce", "рыба", "سمكة"],
    "moon": ["moon", "Mond", "lune", "luna", "lua", "luna", "луна", "قمر"],
    "heart": ["heart", "Herz", "cœur", "corazón", "coração", "cuore", "сердце", "قلب"],
    "flower": ["flower", "Blume", "fleur", "flor", "flor", "fiore", "цветок", "زهرة"],
    "cloud": ["cloud", "Wolke", "nuage", "nube", "nuvem", "nuvola", "облако", "غيمة"],
    "apple": ["apple", "Apfel", "pomme", "manzana", "maçã", "mela", "яблоко", "تفاحة"],
    "snowman": ["snowman", "Schneemann", "bonhomme de neige", "muñeco de nieve", "boneco de neve", "pupazzo di neve", "снеговик", "رجل الثلج"],
    "mountain": ["mountain", "Berg", "montagne", "montaña", "montanha", "montagna", "гора", "جبل"],
    "balloon": ["balloon", "Luftballon", "ballon de baudruche", "globo", "balão", "palloncino", "воздушный шар", "بالون"],
    "glasses": ["glasses", "Brille", "lunettes", "gafas", "óculos", "occhiali", "очки", "نظارة"],
    "ladder": ["ladder", "Leiter", "échelle", "escalera", "escada", "scala", "лестница", "سلم"],
    "eye": ["eye", "Auge", "œil", "ojo", "olho", "occhio", "глаз", "عين"],
    "ball": ["ball", "Ball", "ballon", "pelota", "bola", "palla", "мяч", "كرة"],
}

BLACK, RED, YELLOW, GREEN, BROWN, BLUE, ORANGE, GREY = (
    "#111111", "#e0262b", "#f5c400", "#2e9e3a", "#7a4a1e", "#2f6fd6", "#f08a00", "#8a94a6")


def arc(cx, cy, rx, ry, a0=0.0, a1=360.0, n=None):
    n = n or max(8, int(abs(a1 - a0) / 10))
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n))) for i in range(n + 1)]


def line(*pts, steps=6):
    out = []
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        for i in range(steps):
            out.append((x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps))
    out.append(pts[-1])
    return out


def shapes(concept):
    s = []
    add = lambda color, width, pts: s.append((color, width, pts))
    if concept == "sun":
        add(YELLOW, 10, arc(400, 300, 90, 90))
        for k in range(8):
            a = math.radians(k * 45)
            add(ORANGE, 8, line((400 + 120 * math.cos(a), 300 + 120 * math.sin(a)), (400 + 190 * math.cos(a), 300 + 190 * math.sin(a))))
    elif concept == "house":
        add(BLACK, 6, line((250, 280), (550, 280), (550, 520), (250, 520), (250, 280)))
        add(RED, 8, line((220, 290), (400, 130), (580, 290)))
        add(BROWN, 6, line((370, 520), (370, 420), (430, 420), (430, 520)))
        add(BLUE, 5, line((280, 320), (340, 320), (340, 380), (280, 380), (280, 320)))
    elif concept == "tree":
        add(BROWN, 10, line((370, 540), (380, 360), (420, 360), (430, 540)))
        add(GREEN, 10, arc(400, 260, 150, 120))
        add(GREEN, 6, arc(350, 250, 50, 40, 200, 340))
    elif concept == "star":
        pts = []
        for k in range(11):
            r = 200 if k % 2 == 0 else 80
            a = math.radians(-90 + k * 36)
            pts.append((400 + r * math.cos(a), 310 + r * math.sin(a)))
        add(YELLOW, 8, line(*pts, steps=3))
    elif concept == "fish":
        add(BLUE, 8, arc(380, 300, 170, 90))
        add(BLUE, 8, line((545, 300), (660, 220), (660, 380), (545, 300)))
        add(BLACK, 6, arc(290, 280, 12, 12))
        add(BLUE, 4, arc(390, 300, 40, 60, 300, 420))
    elif concept == "moon":
        add(YELLOW, 8, arc(400, 300, 160, 160, 60, 300))
        add(YELLOW, 8, arc(470, 300, 120, 140, 120, 240))
    elif concept == "heart":
        pts = [(400 + 11 * 16 * math.sin(t) ** 3,
                290 - 11 * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)))
               for t in [i * 2 * math.pi / 48 for i in range(49)]]
        add(RED, 10, pts)
    elif concept == "flower":
        add(GREEN, 8, line((400, 330), (400, 560)))
        add(GREEN, 6, arc(440, 470, 40, 18, 180, 540))
        for k in range(6):
            a = math.radians(k * 60)
            add(RED, 7, arc(400 + 70 * math.cos(a), 240 + 70 * math.sin(a), 40, 40))
        add(YELLOW, 10, arc(400, 240, 35, 35))
    elif concept == "cloud":
        add(GREY, 8, arc(300, 320, 80, 70, 90, 270))
        add(GREY, 8, arc(380, 260, 90, 80, 180, 360))
        add(GREY, 8, arc(500, 280, 80, 70, 220, 450))
        add(GREY, 8, line((300, 390), (500, 350), steps=8))
    elif concept == "apple":
        add(RED, 10, arc(400, 330, 150, 140, -80, 260))
        add(BROWN, 8, line((400, 200), (415, 130)))
        add(GREEN, 6, arc(460, 150, 45, 20, 0, 360))
    elif concept == "snowman":
        add(BLACK, 6, arc(400, 470, 110, 100))
        add(BLACK, 6, arc(400, 300, 80, 75))
        add(BLACK, 6, arc(400, 170, 60, 55))
        add(BLACK, 8, arc(380, 160, 6, 6))
        add(BLACK, 8, arc(420, 160, 6, 6))
        add(ORANGE, 8, line((400, 180), (450, 190), (400, 195)))
    elif concept == "mountain":
        add(BROWN, 8, line((60, 520), (300, 160), (430, 360), (560, 220), (760, 520), (60, 520), steps=10))
        add(BLUE, 6, line((250, 235), (300, 260), (350, 235)))
    elif concept == "balloon":
        add(RED, 8, arc(400, 230, 120, 150))
        add(BLACK, 4, line((400, 380), (380, 430), (420, 480), (390, 540)))
    elif concept == "glasses":
        add(BLACK, 8, arc(300, 300, 80, 70))
        add(BLACK, 8, arc(500, 300, 80, 70))
        add(BLACK, 8, arc(400, 300, 20, 16, 200, 340))
        add(BLACK, 6, line((220, 290), (120, 260)))
        add(BLACK, 6, line((580, 290), (680, 260)))
    elif concept == "ladder":
        add(BROWN, 10, line((320, 80), (320, 560)))
        add(BROWN, 10, line((480, 80), (480, 560)))
        for y in range(130, 560, 80):
            add(BROWN, 8, line((320, y), (480, y)))
    elif concept == "eye":
        add(BLACK, 8, arc(400, 420, 260, 200, 215, 325))
        add(BLACK, 8, arc(400, 180, 260, 200, 35, 145))
        add(BLUE, 10, arc(400, 300, 70, 70))
        add(BLACK, 14, arc(400, 300, 22, 22))
    elif concept == "ball":
        add(BLUE, 8, arc(400, 300, 170, 170))
        add(RED, 8, arc(400, 300, 170, 60, 0, 180))
        add(RED, 8, arc(400, 300, 60, 170, -90, 90))
    return s


def main():
    lists = {}
    for lang in LANGS:
        with open(os.path.join(LISTS, f"words-{lang}.txt"), encoding="utf-8") as f:
            lists[lang] = {w.strip() for w in f if w.strip() and not w.startswith("#")}
    drawings = []
    rng = random.Random(23)
    for concept, words in WORDS.items():
        named = {}
        for lang, word in zip(LANGS, words):
            if word not in lists[lang]:
                raise SystemExit(f"{lang}: {word!r} is not in words-{lang}.txt")
            named[lang] = word
        strokes = []
        for color, width, pts in shapes(concept):
            jittered = [[max(0, min(799, round(x + rng.uniform(-2, 2)))), max(0, min(599, round(y + rng.uniform(-2, 2))))] for x, y in pts]
            strokes.append({"color": color, "width": width, "points": jittered, "ms": 250 + 18 * len(jittered)})
        drawings.append({"concept": concept, "words": named, "strokes": strokes})
    doc = {"format": "drawserver-bot-drawings/1", "w": 800, "h": 600, "drawings": drawings}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(drawings)} drawings in {len(LANGS)} languages to {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
