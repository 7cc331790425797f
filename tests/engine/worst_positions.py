"""Positions whose nodes cost far more than an opening's: boards full of kings (flying kings in Tanzanian
draughts) and of queens. An attack found level 3 taking 1.07 s in the first (its documented time was 0.012 s).
The tests run the levels on them with a fake clock; ``make bench`` times them against each level's budget."""

WORST_POSITIONS: dict[str, list[str]] = {
    "tanzanian": [
        "W:WKa1,Kc1,Ke1,Kg1,Kb2,Kd2,Kf2,Kh2:BKa7,Kc7,Ke7,Kg7,Kb8,Kd8,Kf8,Kh8",
        "W:WKa1,Kc1,Ke1,Kg1:BKb8,Kd8,Kf8,Kh8",
    ],
    "english": ["W:WK29,K30,K31,K32,K25,K26,K27,K28:BK1,K2,K3,K4,K5,K6,K7,K8"],
    "chess": ["7k/8/8/2QQ4/8/8/2qq4/K7 w - - 0 1"],
}
#: The worst of them: 22 moves, each searched 2 plies deep through chains of flying-king captures.
FLYING_KINGS = WORST_POSITIONS["tanzanian"][0]
