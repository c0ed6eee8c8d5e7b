//! `optim::Sgd` and `optim::AdamW` against PyTorch: five steps of each configuration in
//! `tests/data/optim/optim.json` (recorded by `record.py` beside it, `torch.optim.SGD` /
//! `torch.optim.AdamW` with `foreach=False`), gradients set directly, one parameter
//! without a gradient at step 1 (skipped). Every parameter after every step must match
//! within 1e-6 relative (f32).

use serde_json::Value;
use tensor_typed::prelude::*;

#[derive(Params)]
struct Model {
    a: Tensor<f32, Shape![3, 2]>,
    b: Tensor<f32, Shape![4]>,
    c: Tensor<f32, Shape![2, 2]>,
}

fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|x| x.as_f64().expect("number") as f32)
        .collect()
}

fn typed<S: tensor_typed::Shape>(v: &Value, dims: &[usize]) -> Tensor<f32, S> {
    Tensor::from_vec(floats(v), dims).expect("recorded sizes fit")
}

fn set_grad<S: tensor_typed::Shape>(p: &mut Tensor<f32, S>, g: &Value) {
    let grad = if g.is_null() {
        None
    } else {
        Some(typed(g, p.dims()))
    };
    p.set_grad(grad).expect("grad of the parameter's type");
}

fn sgd(o: &Value) -> optim::Sgd {
    let f = |k: &str, d: f64| o.get(k).and_then(Value::as_f64).unwrap_or(d);
    optim::Sgd::new(f("lr", 0.0))
        .momentum(f("momentum", 0.0))
        .dampening(f("dampening", 0.0))
        .weight_decay(f("weight_decay", 0.0))
        .nesterov(o.get("nesterov").and_then(Value::as_bool).unwrap_or(false))
        .maximize(o.get("maximize").and_then(Value::as_bool).unwrap_or(false))
}

fn adamw(o: &Value) -> optim::AdamW {
    let mut opt = optim::AdamW::new(o["lr"].as_f64().expect("lr"));
    if let Some(b) = o.get("betas") {
        opt = opt.betas((b[0].as_f64().unwrap(), b[1].as_f64().unwrap()));
    }
    if let Some(e) = o.get("eps").and_then(Value::as_f64) {
        opt = opt.eps(e);
    }
    if let Some(w) = o.get("weight_decay").and_then(Value::as_f64) {
        opt = opt.weight_decay(w);
    }
    if let Some(a) = o.get("amsgrad").and_then(Value::as_bool) {
        opt = opt.amsgrad(a);
    }
    opt
}

/// Runs one recorded case; returns the largest relative error seen.
fn run_case(case: &Value) -> f64 {
    let name = case["name"].as_str().unwrap();
    let init = &case["init"];
    let mut m = Model {
        a: typed(&init[0], &[3, 2]),
        b: typed(&init[1], &[4]),
        c: typed(&init[2], &[2, 2]),
    };
    m.requires_grad_(true).unwrap();
    let mut opt: Box<dyn Optimizer> = match case["optimizer"].as_str().unwrap() {
        "sgd" => Box::new(sgd(&case["options"])),
        _ => Box::new(adamw(&case["options"])),
    };
    let mut worst = 0.0f64;
    for (step, (grads, after)) in case["grads"]
        .as_array()
        .unwrap()
        .iter()
        .zip(case["after"].as_array().unwrap())
        .enumerate()
    {
        set_grad(&mut m.a, &grads[0]);
        set_grad(&mut m.b, &grads[1]);
        set_grad(&mut m.c, &grads[2]);
        opt.step(&mut m).unwrap();
        let got = [m.a.to_vec(), m.b.to_vec(), m.c.to_vec()];
        for (k, got) in got.iter().enumerate() {
            let want = floats(&after[k]);
            for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let err = (g as f64 - w as f64).abs() / (w as f64).abs().max(1e-3);
                worst = worst.max(err);
                assert!(
                    err <= 1e-6,
                    "{name}: step {step}, parameter {k}, element {i}: {g} vs PyTorch {w}"
                );
            }
        }
    }
    worst
}

#[test]
fn sgd_and_adamw_match_pytorch_steps() {
    let data: Value =
        serde_json::from_str(include_str!("../data/optim/optim.json")).expect("optim.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 10);
    for case in cases {
        let worst = run_case(case);
        println!("{}: worst relative error {worst:.2e}", case["name"]);
    }
}

#[test]
fn invalid_hyper_parameters_are_pytorchs_errors() {
    let mut m = Model {
        a: Tensor::ones(),
        b: Tensor::ones(),
        c: Tensor::ones(),
    };
    let msg = |r: Result<()>| r.unwrap_err().to_string();
    assert!(msg(optim::Sgd::new(-0.1).step(&mut m)).contains("Invalid learning rate: -0.1"));
    assert!(msg(optim::Sgd::new(0.1).momentum(-1.0).step(&mut m))
        .contains("Invalid momentum value: -1"));
    assert!(msg(optim::Sgd::new(0.1).nesterov(true).step(&mut m))
        .contains("Nesterov momentum requires a momentum and zero dampening"));
    assert!(
        msg(optim::AdamW::new(1e-3).betas((1.0, 0.999)).step(&mut m))
            .contains("Invalid beta parameter at index 0: 1")
    );
    assert!(
        msg(optim::AdamW::new(1e-3).eps(-1.0).step(&mut m)).contains("Invalid epsilon value: -1")
    );
    assert!(msg(optim::AdamW::new(1e-3).weight_decay(-0.5).step(&mut m))
        .contains("Invalid weight_decay value: -0.5"));
    // Floats as Python prints them (torch.optim 2.15's messages, checked by hand):
    // 1.0, 1e+308, -1e-05, nan; SGD's `lr < 0.0` lets a NaN pass, AdamW's
    // `not 0.0 <= lr` does not.
    assert!(msg(optim::AdamW::new(1e-3).betas((1.0, 0.9)).step(&mut m))
        .ends_with("Invalid beta parameter at index 0: 1.0"));
    assert!(msg(optim::Sgd::new(0.1).weight_decay(-1e308).step(&mut m))
        .ends_with("Invalid weight_decay value: -1e+308"));
    assert!(msg(optim::AdamW::new(-1e-5).step(&mut m)).ends_with("Invalid learning rate: -1e-05"));
    assert!(msg(optim::AdamW::new(f64::NAN).step(&mut m)).ends_with("Invalid learning rate: nan"));
    assert!(msg(optim::AdamW::new(1e-3).eps(-1e16).step(&mut m))
        .ends_with("Invalid epsilon value: -1e+16"));
    assert!(optim::Sgd::new(f64::NAN).step(&mut m).is_ok());
}

#[test]
fn step_skips_parameters_without_grad_and_leaves_no_graph() -> Result<()> {
    let mut m = Model {
        a: Tensor::ones(),
        b: Tensor::ones(),
        c: Tensor::ones(),
    };
    m.requires_grad_(true)?;
    (&m.b * &m.b).sum_all().backward()?;
    let mut opt = optim::AdamW::new(0.1);
    opt.step(&mut m)?;
    assert_eq!(m.a.to_vec(), vec![1.0; 6], "no grad: untouched");
    assert!(m.b.to_vec().iter().all(|&v| v < 1.0));
    assert!(
        m.b.is_leaf() && m.b.requires_grad(),
        "updated outside the graph"
    );
    m.zero_grad();
    assert!(m.b.grad().is_none());
    Ok(())
}

/// Training a tiny linear regression: the loss falls (the optimisers drive autograd's
/// gradients the right way).
#[test]
fn sgd_momentum_and_adamw_fit_a_line() -> Result<()> {
    #[derive(Params)]
    struct Line {
        w: Tensor<f32, Shape![1, 1]>,
        b: Tensor<f32, Shape![1]>,
    }
    let x =
        Tensor::<f32, Shape![8, 1]>::from_vec((0..8).map(|i| i as f32 / 4.0).collect(), &[8, 1])?;
    let y = &x.mul_scalar(3.0) + &Tensor::<f32, Shape![1]>::full(-1.0);
    let opts: Vec<Box<dyn Optimizer>> = vec![
        Box::new(optim::Sgd::new(0.05).momentum(0.9)),
        Box::new(optim::AdamW::new(0.1).weight_decay(0.0)),
    ];
    for mut opt in opts {
        let mut line = Line {
            w: Tensor::zeros(),
            b: Tensor::zeros(),
        };
        line.requires_grad_(true)?;
        let mut last = f32::INFINITY;
        for _ in 0..300 {
            let d = &(&x.matmul(&line.w) + &line.b) - &y;
            let loss = (&d * &d).mean_all();
            last = loss.item()?;
            loss.backward()?;
            opt.step(&mut line)?;
            line.zero_grad();
        }
        assert!(last < 1e-3, "loss {last}");
    }
    Ok(())
}
