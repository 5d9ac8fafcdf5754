use super::*;
use crate::model::cube::Move;

const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

#[test]
fn solved_and_r_turn_stickers() {
    assert_eq!(Cube3::SOLVED.to_facelets(), SOLVED);
    let r = Cube3::from_moves(&[Move::new(Face::R, 1)]);
    assert_eq!(
        r.to_facelets(),
        "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
    );
}

#[test]
fn colour_letters_are_read_through_the_centres() {
    let colours = SOLVED
        .replace('U', "W")
        .replace('R', "r")
        .replace('F', "G")
        .replace('D', "Y")
        .replace('L', "O")
        .replace('B', "b");
    assert_eq!(Cube3::from_facelets(&colours), Ok(Cube3::SOLVED));
}

#[test]
fn each_fault_has_its_own_error() {
    assert!(matches!(
        Cube3::from_facelets("UUU"),
        Err(FaceletError::WrongLength { found: 3, .. })
    ));
    let mut s: Vec<char> = SOLVED.chars().collect();
    s[0] = 'X';
    let text: String = s.iter().collect();
    assert!(matches!(
        Cube3::from_facelets(&text),
        Err(FaceletError::UnknownLetter {
            letter: 'X',
            position: 1,
            ..
        })
    ));
    s[0] = 'R';
    let text: String = s.iter().collect();
    assert!(matches!(
        Cube3::from_facelets(&text),
        Err(FaceletError::ColourCount {
            colour: 'U',
            count: 8,
            ..
        })
    ));
    // Swap two stickers of one corner: a twisted corner.
    let mut s: Vec<char> = SOLVED.chars().collect();
    s.swap(8, 9);
    s.swap(9, 20);
    let text: String = s.iter().collect();
    assert_eq!(
        Cube3::from_facelets(&text),
        Err(FaceletError::Invalid(InvalidCube::Twist(2)))
    );
    // U and D stickers on one corner: no such corner.
    let mut s: Vec<char> = SOLVED.chars().collect();
    s.swap(9, 29);
    let text: String = s.iter().collect();
    assert!(matches!(
        Cube3::from_facelets(&text),
        Err(FaceletError::NoSuchCorner { slot: "URF", .. })
    ));
}

#[test]
fn pocket_round_trip_and_colours() {
    let seq = [
        Move::new(Face::R, 1),
        Move::new(Face::U, 3),
        Move::new(Face::F, 2),
    ];
    let cube = Cube2::from_moves(&seq);
    let text = cube.to_facelets();
    assert_eq!(text.len(), 24);
    assert_eq!(Cube2::from_facelets(&text), Ok(cube));
    let coloured: String = text
        .chars()
        .map(|c| match c {
            'U' => 'W',
            'D' => 'Y',
            'F' => 'G',
            'B' => 'K',
            'R' => 'P',
            _ => 'O',
        })
        .collect();
    // Named by its DBL corner, the coloured cube has DBL solved, and the turns that solve
    // the lettered cube (the same stickers) solve it too.
    let named_by_dbl = Cube2::from_facelets(&coloured).unwrap();
    assert!(named_by_dbl.is_normalised());
    let undo: Vec<Move> = seq.iter().rev().map(|m| m.inverse()).collect();
    assert!(named_by_dbl.apply_all(&undo).is_solved());
}

/// Wrong colour counts in arbitrary colours are named as such, not blamed on a letter
/// that a scheme built from the wrong counts leaves out.
#[test]
fn pocket_colour_faults_name_the_counts() {
    assert_eq!(
        Cube2::from_facelets("WWWWRRRRGGGGYYYYOOOOOOOO"),
        Err(FaceletError::ColourSet {
            colours: "GORWY".into(),
            per_colour: 4
        })
    );
    assert_eq!(
        Cube2::from_facelets("WWWWRRRRGGGGYYYYOOOOBBBW"),
        Err(FaceletError::ColourCount {
            colour: 'B',
            count: 3,
            expected: 4
        })
    );
    assert_eq!(
        Cube2::from_facelets("WWWWRRRRGGGGYYYYOOOOBBBO"),
        Err(FaceletError::ColourCount {
            colour: 'B',
            count: 3,
            expected: 4
        })
    );
}

#[test]
fn reid_notation_reads_and_writes_known_positions() {
    let solved = REID_SLOTS.join(" ");
    assert_eq!(Cube3::from_reid(&solved), Ok(Cube3::SOLVED));
    assert_eq!(Cube3::SOLVED.to_reid(), solved);
    let after_u = Cube3::from_moves(&crate::model::notation::parse_moves("U").unwrap());
    assert_eq!(
        after_u.to_reid(),
        "UR UB UL UF DF DR DB DL FR FL BR BL URB UBL ULF UFR DRF DFL DLB DBR"
    );
    let superflip = "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";
    let superflip = Cube3::from_moves(&crate::model::notation::parse_moves(superflip).unwrap());
    assert_eq!(
        Cube3::from_reid("FU RU BU LU FD RD BD LD RF LF RB LB UFR URB UBL ULF DRF DFL DLB DBR"),
        Ok(superflip)
    );
}

#[test]
fn reid_notation_round_trips_random_positions() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    for _ in 0..1000 {
        let cube = Cube3::random(&mut rng);
        assert_eq!(Cube3::from_reid(&cube.to_reid()), Ok(cube));
    }
}

#[test]
fn reid_faults_name_the_slot() {
    let solved = REID_SLOTS.join(" ");
    assert_eq!(
        Cube3::from_reid("UF UR"),
        Err(FaceletError::ReidPieceCount(2))
    );
    let long = solved.replacen("UR", "URF", 1);
    assert!(matches!(
        Cube3::from_reid(&long),
        Err(FaceletError::ReidPiece { slot: "UR", .. })
    ));
    let twisted = solved.replacen("UFR", "FRU", 1);
    assert!(Cube3::from_reid(&twisted).is_err(), "one twisted corner");
    let flipped = solved.replacen("UF", "FU", 1);
    assert!(Cube3::from_reid(&flipped).is_err(), "one flipped edge");
}

#[test]
fn the_net_unfolds_the_faces_around_f() {
    let r = Cube3::from_moves(&[Move::new(Face::R, 1)]);
    assert_eq!(
        net(&r.to_facelets(), None),
        concat!(
            "      U U F\n",
            "      U U F\n",
            "      U U F\n",
            "L L L F F D R R R U B B\n",
            "L L L F F D R R R U B B\n",
            "L L L F F D R R R U B B\n",
            "      D D B\n",
            "      D D B\n",
            "      D D B\n",
        )
    );
    let colours = [
        (255, 255, 255),
        (200, 0, 0),
        (0, 150, 0),
        (255, 255, 0),
        (255, 128, 0),
        (0, 0, 200),
    ];
    let pocket = net(&Cube2::SOLVED.to_facelets(), Some(&colours));
    assert_eq!(pocket.lines().count(), 6);
    assert!(
        pocket.contains("\x1b[48;2;255;255;255m\x1b[38;2;0;0;0mU "),
        "white U, black ink"
    );
    assert!(
        pocket.contains("\x1b[48;2;0;0;200m\x1b[38;2;255;255;255mB "),
        "blue B, white ink"
    );
    assert_eq!(net("RU", Some(&colours)), "RU\n");
}
