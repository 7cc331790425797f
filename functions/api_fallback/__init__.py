"""ANY /v1/{proxy+}: the API's JSON 404 and 405 for requests no other function's route takes."""
