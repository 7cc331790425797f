"""The review queue on AWS (``common.reviews.queue.SqsReviewQueue`` through ``common.persistence.queue``), on
moto's SQS: an asked-for review arrives as one ``{"game_id": ...}`` message, and a queue SQS cannot take it into
is ``StoreUnavailable`` (the API's 503), never a raw botocore error."""

from __future__ import annotations

import json

import pytest
from common.persistence import queue
from common.persistence.deadline import StoreUnavailable
from common.reviews.queue import SqsReviewQueue, queue_from_environment
from moto import mock_aws


@pytest.fixture
def sqs(aws_env):
    queue.reset_clients()
    with mock_aws():
        yield queue.client("us-east-1")
    queue.reset_clients()


def test_an_asked_for_review_is_one_message_naming_the_game(sqs, monkeypatch):
    url = sqs.create_queue(QueueName="reviews")["QueueUrl"]
    monkeypatch.setenv("REVIEW_QUEUE_URL", url)
    review_queue = queue_from_environment()
    assert isinstance(review_queue, SqsReviewQueue)

    review_queue.send("AAAAAAAAAAAA")

    messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", [])
    assert [json.loads(message["Body"]) for message in messages] == [{"game_id": "AAAAAAAAAAAA"}]


def test_a_queue_sqs_refuses_is_store_unavailable(sqs):
    with pytest.raises(StoreUnavailable):
        SqsReviewQueue("https://sqs.us-east-1.amazonaws.com/123456789012/no-such-queue").send("AAAAAAAAAAAA")
