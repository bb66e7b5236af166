// Centring cups and trays: printed parts that steer a pawn over its sensor and let its LED shine.
//
// A hall sensor only reads a small magnet well near its axis (hardware/bom.md, "Placement"), while
// a player may leave a pawn 10 mm off a square's centre. So every square gets a cup: a funnel
// round a recess just wider than the pawn's base, sloping all the way to the cup's edges and
// corners, so there is no flat shelf anywhere a pawn could stay off-centre. Every START and HOME
// circle gets a tray of four such pockets, one over each spot's sensor, whose funnels meet in
// ridges: a pawn set down anywhere on the tray slides into a pocket. Neither has a floor: the pawn
// stands on the board itself, so the magnet's distance to the sensor does not change. Every LED
// under a part shines through a window, a hole straight through it.
//
// Do not edit positions here: `pawnlight hardware parts --out DIR` renders this file with the
// board's geometry (pi/pawnlight/board/geometry.py: the pitch, the spots, the LED windows) and
// places every part on the board; DIR/print/ holds one STL per kind of part to print.
// By hand: openscad -D 'part="square"' -D 'windows=[[-9.9,-9.9]]' -o cup.stl centring-cups.scad
//
// Coordinates: millimetres from the part's centre, x to the right and y towards the top of the
// board as seen from above for red's side (the part is turned with the board for the others).
// Print in PLA or PETG, 0.2 mm layers, no supports, flat side down; glue with double-sided tape.

part = "preview";      // "square", "tray" or "preview" (both, side by side)
windows = [];          // LED windows [[x, y], ...] from the part's centre, mm

pawn_base = 13.5;      // diameter of a pawn's base, mm
clearance = 1.0;       // recess = base + clearance: the pawn stays within clearance / 2 of centre
place = 33;            // distance between the centres of neighbouring squares, mm
gap = 1.5;             // left free between neighbouring parts
wall = 1.0;            // straight part of the recess, below the funnel
slope = 30;            // funnel angle from the horizontal, degrees: steeper than any pawn can rest on
corner = 2;            // radius of a cup's rounded corners
window = 6;            // diameter of an LED window (the board's hole is 5 mm)

circle = 62.7;         // diameter of a START or HOME circle
spot = 13.2;           // its four spots (and sensors) sit at (+-spot, +-spot) from its centre

$fn = 96;

recess = pawn_base + clearance;

// A funnel: the recess, widening at `slope` above `wall`, up to `height` and beyond, so it can be
// cut from a solid of that height.
module funnel(height) {
    run = (height - wall) / tan(slope);
    translate([0, 0, -0.01]) cylinder(d = recess, h = wall + 0.02);
    translate([0, 0, wall]) cylinder(d1 = recess, d2 = recess + 2 * run * 3, h = (height - wall) * 3);
}

module windows_cut(height) {
    for (w = windows) translate([w[0], w[1], -1]) cylinder(d = window, h = height + 2);
}

// The funnel reaches a point `far` from the recess's centre at this height; the parts are made a
// little higher than the farthest point needs, so the cone passes outside every edge and corner and
// the top has no flat left.
function height_for(far) = wall + (far - recess / 2) * tan(slope) + 0.2;

// One square's cup: a rounded square plate with the funnel through it.
module square_cup() {
    side = place - gap;
    far = (side / 2 - corner) * sqrt(2) + corner;    // centre to the rounded corner
    height = height_for(far);
    difference() {
        linear_extrude(height = height)
            offset(r = corner) offset(delta = -corner) square(side, center = true);
        funnel(height);
        windows_cut(height);
    }
}

// One START or HOME circle's tray: four pockets, one over each spot, their funnels meeting in
// ridges so the whole top slopes into one pocket or another.
module circle_tray() {
    radius = (circle - gap) / 2;
    far = max(sqrt(2) * spot, sqrt(spot * spot + (radius - spot) * (radius - spot)));
    height = height_for(far);
    difference() {
        cylinder(r = radius, h = height);
        for (x = [-spot, spot], y = [-spot, spot])
            translate([x, y, 0]) funnel(height);
        windows_cut(height);
    }
}

if (part == "square") square_cup();
else if (part == "tray") circle_tray();
else {
    translate([-place / 2 - 8, 0, 0]) square_cup();
    translate([circle / 2 + 8, 0, 0]) circle_tray();
}
