//! A swipe (touch) or a drag (mouse) on the page as a slide: 2048 is played by sliding the way the finger went.

use parlor::input::KeyCode;

/// The shortest travel, in CSS pixels, that counts as a swipe (shorter is a tap or a click).
pub const MIN_TRAVEL: f64 = 24.0;

/// The arrow key of a swipe from `(x0, y0)` to `(x1, y1)` (page coordinates, y down), or `None` when it is too
/// short or too diagonal to say (the longer axis must be at least twice the shorter).
pub fn direction(x0: f64, y0: f64, x1: f64, y1: f64) -> Option<KeyCode> {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax.max(ay) < MIN_TRAVEL || !ax.is_finite() || !ay.is_finite() {
        return None;
    }
    if ax >= 2.0 * ay {
        Some(if dx > 0.0 {
            KeyCode::Right
        } else {
            KeyCode::Left
        })
    } else if ay >= 2.0 * ax {
        Some(if dy > 0.0 { KeyCode::Down } else { KeyCode::Up })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swipe_slides_the_way_it_went() {
        assert_eq!(direction(100.0, 100.0, 20.0, 110.0), Some(KeyCode::Left));
        assert_eq!(direction(100.0, 100.0, 180.0, 90.0), Some(KeyCode::Right));
        assert_eq!(direction(100.0, 100.0, 95.0, 10.0), Some(KeyCode::Up));
        assert_eq!(direction(100.0, 100.0, 110.0, 200.0), Some(KeyCode::Down));
    }

    #[test]
    fn a_tap_or_a_diagonal_is_no_swipe() {
        assert_eq!(direction(100.0, 100.0, 110.0, 105.0), None, "a tap");
        assert_eq!(direction(100.0, 100.0, 160.0, 150.0), None, "diagonal");
        assert_eq!(direction(0.0, 0.0, f64::NAN, 50.0), None);
    }
}
