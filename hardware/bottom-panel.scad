// The printed parts under the board: the hatch cover over the Pico and the feet.
//
// The bottom panel itself is a 3 mm hardboard or plywood sheet the deck's size, screwed to the
// frame; it has a rectangular opening under the Pico (the hatch) so its USB socket and BOOTSEL
// button stay reachable. The cover closes that opening from below with four M3 screws, and its
// rim sits in the opening so it cannot slide. The feet are screwed through the panel into the
// frame strips: eight of them, so a leaning elbow does not bend the panel.
//
// Do not edit the sizes here: `pawnlight hardware parts --out DIR` renders this file with the
// sizes in hardware/pawnlight_hardware/underside.py and writes DIR/print/hatch.stl and foot.stl,
// DIR/panel.svg (the panel's cut-out and holes at 1:1) and DIR/under/*.stl (placed under the
// board). By hand: openscad -D 'part="hatch"' -o hatch.stl bottom-panel.scad
//
// Print flat side down, no supports, PLA or PETG, 0.2 mm layers.

part = "preview";       // "hatch", "foot" or "preview"

opening = [90, 60];     // the hatch opening in the panel, mm
overlap = 8;            // the cover reaches this far past the opening on every side
plate = 2.4;            // the cover's thickness
rim = 2.6;              // how high its locating rim stands into the opening (the panel is 3 mm)
rim_wall = 1.6;
fit = 0.4;              // gap between the rim and the opening's edges
screw = 3.4;            // M3 clearance
head = 6.2;             // M3 countersunk head

foot_d = 30;
foot_h = 10;
foot_screw = 3.5;       // a 3.5 mm wood screw into the frame
foot_head = 7.5;

$fn = 64;

module countersunk(d, head_d, depth) {
    translate([0, 0, -1]) cylinder(d = d, h = depth + 2);
    translate([0, 0, -0.01]) cylinder(d1 = head_d, d2 = d, h = (head_d - d) / 2);
}

module hatch() {
    w = opening[0] + 2 * overlap;
    h = opening[1] + 2 * overlap;
    difference() {
        union() {
            translate([-w / 2, -h / 2, 0]) cube([w, h, plate]);
            // The rim: a hollow rectangle just inside the opening.
            translate([0, 0, plate]) difference() {
                cube([opening[0] - 2 * fit, opening[1] - 2 * fit, 2 * rim], center = true);
                cube([opening[0] - 2 * fit - 2 * rim_wall, opening[1] - 2 * fit - 2 * rim_wall,
                      2 * rim + 2], center = true);
                translate([0, 0, -rim - 1]) cube([w, h, rim + 1 + 0.01], center = true);
            }
        }
        for (sx = [-1, 1], sy = [-1, 1])
            translate([sx * (w / 2 - overlap / 2), sy * (h / 2 - overlap / 2), 0])
                countersunk(screw, head, plate);
        // A finger notch on one long edge, to pull the cover off once unscrewed.
        translate([0, -h / 2, -1]) scale([1.6, 1, 1]) cylinder(r = 6, h = plate + 2);
    }
}

module foot() {
    difference() {
        // Chamfered at the bottom edge so it does not catch on a tablecloth.
        union() {
            cylinder(d1 = foot_d - 3, d2 = foot_d, h = 1.5);
            translate([0, 0, 1.5]) cylinder(d = foot_d, h = foot_h - 1.5);
        }
        countersunk(foot_screw, foot_head, foot_h);
    }
}

if (part == "hatch") hatch();
else if (part == "foot") foot();
else {
    hatch();
    translate([opening[0] / 2 + overlap + foot_d, 0, 0]) foot();
}
