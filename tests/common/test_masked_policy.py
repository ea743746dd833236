"""training.policy's MaskedCategorical: the distribution sb3-contrib's MaskableCategorical
gives, built with one normalisation and no argument validation."""

import numpy as np
import pytest
import torch
from sb3_contrib.common.maskable.distributions import MaskableCategorical

from training.policy import MaskedCategorical


@pytest.fixture
def logits_and_masks():
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 50, generator=gen) * 3
    masks = np.random.default_rng(0).random((64, 50)) < 0.3
    masks[:, 0] = True
    return logits, masks


def test_same_distribution_as_sb3_contribs(logits_and_masks):
    logits, masks = logits_and_masks
    ours, theirs = MaskedCategorical(logits=logits), MaskableCategorical(logits=logits)
    ours.apply_masking(masks)
    theirs.apply_masking(masks)
    torch.testing.assert_close(ours.probs, theirs.probs, atol=1e-6, rtol=1e-5)
    torch.testing.assert_close(ours.entropy(), theirs.entropy(), atol=1e-5, rtol=1e-5)
    actions = torch.as_tensor(np.argmax(masks, axis=1))
    torch.testing.assert_close(ours.log_prob(actions), theirs.log_prob(actions))
    assert ours.probs[torch.as_tensor(~masks)].max() == 0


def test_samples_only_legal_actions(logits_and_masks):
    logits, masks = logits_and_masks
    dist = MaskedCategorical(logits=logits, masks=masks)
    torch.manual_seed(0)
    picks = dist.sample((20,))
    assert np.take_along_axis(masks[None].repeat(20, 0), picks.numpy()[..., None], 2).all()


def test_without_a_mask_it_is_the_plain_softmax(logits_and_masks):
    logits, _ = logits_and_masks
    dist = MaskedCategorical(logits=logits)
    torch.testing.assert_close(dist.probs, torch.softmax(logits, dim=-1))
    assert dist.batch_shape == (64,)
    dist.apply_masking(None)
    assert dist.masks is None


def test_masks_can_be_replaced_and_removed(logits_and_masks):
    logits, masks = logits_and_masks
    dist = MaskedCategorical(logits=logits, masks=masks)
    dist.apply_masking(~masks | (np.arange(50) == 0))
    assert dist.probs[torch.as_tensor(masks[:, 1:]).nonzero()[:, 0], 0].min() > 0
    dist.apply_masking(None)
    torch.testing.assert_close(dist.probs, torch.softmax(logits, dim=-1))


def test_refuses_probabilities():
    with pytest.raises(ValueError, match="logits"):
        MaskedCategorical(probs=torch.ones(3, 4) / 4)
