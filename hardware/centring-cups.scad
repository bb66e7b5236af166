// Centring cups: printed inserts that steer a pawn to the middle of its place, over its sensor.
//
// A hall sensor only reads a small magnet well near its axis (hardware/bom.md, "Placement"):
// the 6 x 3 mm N42 at 5 mm gives 51 mT centred, 33 mT 3 mm off, 15 mT 5 mm off, 2 mT 8 mm off,
// while a player may leave a pawn 10 mm off a square's centre. So every square gets a cup, a
// funnel round a recess just wider than the pawn's base, and every START and HOME circle a
// tray of four such pockets whose funnels meet in ridges: a pawn set down anywhere in the
// circle ends in a pocket over a sensor. Neither has a floor: the pawn stands on the board
// itself, so the magnet's distance to the sensor does not change.
//
// Measure your pawns and board and set the parameters below (or pass them with -D).
// Render:  scripts/render-hardware            (STL files and the PNG preview)
// or:      openscad -D 'part="square"' -o square-cup.stl hardware/centring-cups.scad
//
// Print in PLA or PETG, 0.2 mm layers, no supports, flat side down; glue with double-sided tape.

part = "preview";      // "square", "circle" or "preview" (both, side by side)

pawn_base = 13.5;      // diameter of a pawn's base, mm
clearance = 1.0;       // recess = base + clearance: the pawn stays within clearance / 2 of centre
place = 33;            // distance between the centres of neighbouring squares, mm
gap = 1.5;             // left free between neighbouring cups
wall = 1.0;            // straight part of the recess, below the funnel
slope = 30;            // funnel angle from the horizontal, degrees (steeper steers better)

circle = 62;           // diameter of a START or HOME circle
spot = 14;             // its four spots (and sensors) sit at (+-spot, +-spot) from its centre
tray_slope = 25;       // the tray's funnels: gentler, so the ridges stay low

$fn = 96;

recess = pawn_base + clearance;

// A funnel: the recess, widening at `angle` up to `height`, continued above it so it can
// be cut from a taller solid.
module funnel(height, angle) {
    run = (height - wall) / tan(angle);
    translate([0, 0, -0.01]) cylinder(d = recess, h = wall + 0.02);
    translate([0, 0, wall]) cylinder(d1 = recess, d2 = recess + 2 * run * 3, h = (height - wall) * 3);
}

// One square's cup: a rounded square plate with the funnel through it.
module square_cup() {
    side = place - gap;
    height = wall + (side / 2 - 1.5 - recess / 2) * tan(slope) * 0.6;
    difference() {
        linear_extrude(height = height)
            offset(r = 2) offset(delta = -2) square(side, center = true);
        funnel(height, slope);
    }
}

// One START or HOME circle's tray: four pockets, their funnels reaching past the centre so
// the whole top slopes into one pocket or another.
module circle_tray() {
    reach = sqrt(2) * spot;                          // centre of the circle to a spot
    height = wall + (reach - recess / 2) * tan(tray_slope);
    difference() {
        cylinder(d = circle - gap, h = height);
        for (x = [-spot, spot], y = [-spot, spot])
            translate([x, y, 0]) funnel(height, tray_slope);
    }
}

if (part == "square") square_cup();
else if (part == "circle") circle_tray();
else {
    translate([-place / 2 - 8, 0, 0]) square_cup();
    translate([circle / 2 + 8, 0, 0]) circle_tray();
}
