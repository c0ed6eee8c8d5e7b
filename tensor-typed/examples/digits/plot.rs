//! The picture of training (`--plot PATH`, feature `plot`): a PNG drawn with plotters'
//! bitmap backend and written with the `png` crate. Top left: the loss per epoch (red);
//! top right: the training accuracy per epoch (blue) and the final test accuracy
//! (green, level); each plot's y range is scaled to its data; bottom: the misclassified test
//! digits, one 8x8 image each, ink dark. There is no text (plotters draws text only
//! with a font feature, which would bring a font renderer): the run's output lists the
//! same digits with their labels and guesses, in the same order.

use crate::axes::y_range;
use crate::data::{Split, PIXELS};
use crate::train::Report;
use plotters::prelude::*;
use std::path::Path;

/// Width and height of the picture, in pixels.
const SIZE: (u32, u32) = (960, 720);
/// The side of one digit's image in the grid, in pixels (8 cells of 10).
const CELL: u32 = 80;

/// Draws `report`'s training and its mistakes on `split.test` into a PNG at `path`.
///
/// # Errors
/// A message for a drawing error or a file that cannot be written.
pub fn write(path: &Path, split: &Split, report: &Report) -> Result<(), String> {
    let (w, h) = SIZE;
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    draw(&mut rgb, split, report).map_err(|e| format!("drawing: {e}"))?;
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut png = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    png.set_color(png::ColorType::Rgb);
    png.set_depth(png::BitDepth::Eight);
    let mut writer = png.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&rgb).map_err(|e| e.to_string())
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type Failure = Box<dyn std::error::Error>;

fn draw(rgb: &mut [u8], split: &Split, report: &Report) -> Result<(), Failure> {
    let root = BitMapBackend::with_buffer(rgb, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(SIZE.1 / 2);
    let (left, right) = top.split_horizontally(SIZE.0 / 2);
    let epochs = report.epochs.len().max(1) as f64;
    let losses: Vec<(f64, f64)> = report
        .epochs
        .iter()
        .map(|e| (e.epoch as f64, e.loss))
        .collect();
    let loss_values: Vec<f64> = losses.iter().map(|p| p.1).collect();
    let loss_range = y_range(&loss_values, 0.0, f64::INFINITY);
    curves(&left, epochs, loss_range, &[(losses, RED)])?;
    let train: Vec<(f64, f64)> = report
        .epochs
        .iter()
        .map(|e| (e.epoch as f64, e.train_accuracy))
        .collect();
    let test = vec![(1.0, report.test_accuracy), (epochs, report.test_accuracy)];
    let accuracies: Vec<f64> = train.iter().chain(&test).map(|p| p.1).collect();
    let accuracy_range = y_range(&accuracies, 0.0, 1.0);
    curves(
        &right,
        epochs,
        accuracy_range,
        &[(train, BLUE), (test, GREEN)],
    )?;
    mistakes(&bottom, split, report)?;
    root.present()?;
    Ok(())
}

/// Line series on `area` over epochs 1..=`epochs`, over the y range `y`.
fn curves(
    area: &Area<'_>,
    epochs: f64,
    y: std::ops::Range<f64>,
    series: &[(Vec<(f64, f64)>, RGBColor)],
) -> Result<(), Failure> {
    let mut chart = ChartBuilder::on(area)
        .margin(20)
        .build_cartesian_2d(1.0..epochs.max(2.0), y)?;
    chart.plotting_area().fill(&RGBColor(245, 245, 245))?;
    for (points, color) in series {
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            color.stroke_width(2),
        ))?;
    }
    Ok(())
}

/// The misclassified test digits in rows, ink dark on white.
fn mistakes(area: &Area<'_>, split: &Split, report: &Report) -> Result<(), Failure> {
    let (w, h) = area.dim_in_pixel();
    let per_row = (w / (CELL + 8)).max(1) as usize;
    let rows = (h / (CELL + 8)).max(1) as usize;
    let pixel = (CELL / 8) as i32;
    for (k, &(i, _)) in report.mistakes.iter().take(per_row * rows).enumerate() {
        let x0 = 8 + (k % per_row) as i32 * (CELL as i32 + 8);
        let y0 = 8 + (k / per_row) as i32 * (CELL as i32 + 8);
        for (p, &v) in split.test.image(i).iter().enumerate().take(PIXELS) {
            let shade = (255.0 * (1.0 - v.clamp(0.0, 1.0))) as u8;
            let (x, y) = (x0 + (p % 8) as i32 * pixel, y0 + (p / 8) as i32 * pixel);
            area.draw(&Rectangle::new(
                [(x, y), (x + pixel, y + pixel)],
                RGBColor(shade, shade, shade).filled(),
            ))?;
        }
    }
    Ok(())
}
