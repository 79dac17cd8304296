#!/usr/bin/env bash
# A whole cross-network swap through the public HTTP API with curl, jq and Foundry's cast
# only (no TypeScript): tokens → quote with its transaction → allowance (approve if needed)
# → sign and send → submit → poll the status until solved (exit 0) or failed (exit 1).
# Against `npm start` it needs no settings; see README.md beside it for the variables.
set -euo pipefail
shopt -s inherit_errexit

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

API_URL=${API_URL:-http://127.0.0.1:3000}
API_URL=${API_URL%/}
SRC_CHAIN=${SRC_CHAIN:-0xa4b1.arbitrum}
DST_CHAIN=${DST_CHAIN:-0x2105.base}
TOKEN_IN=${TOKEN_IN:-USDC}
TOKEN_OUT=${TOKEN_OUT:-USDC}
AMOUNT=${AMOUNT:-10000000} # smallest units of TOKEN_IN (10 USDC)
# anvil's development account 2, funded with USDC by the devnet (test money only).
PRIVATE_KEY=${PRIVATE_KEY:-0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a}
CHAIN_PROFILE=${CHAIN_PROFILE:-${DATA_DIR:-$ROOT/.data}/devnet/profile.json}
POLL_SECONDS=${POLL_SECONDS:-1}
TIMEOUT_SECONDS=${TIMEOUT_SECONDS:-120}

fail() {
  echo "swap.sh: $*" >&2
  exit 1
}

for tool in curl jq; do
  command -v "$tool" >/dev/null || fail "$tool is missing: install it (Debian: apt-get install $tool)"
done
CAST=${CAST:-$(command -v cast || echo "$ROOT/node_modules/.bin/cast")}
[[ -x $CAST ]] || fail "cast is missing: run npm install in $ROOT (it brings @foundry-rs/cast), or install Foundry, or set CAST"
# npm's @foundry-rs/cast runs the binary through a Node wrapper (bin.mjs) that exits 0 even
# when cast fails: run the binary it wraps, from the platform package installed beside it.
wrapper=$(readlink -f "$CAST" || true)
if [[ $wrapper == */@foundry-rs/cast/bin.mjs ]]; then
  for binary in "${wrapper%/cast/bin.mjs}"/cast-*/bin/cast; do
    [[ -x $binary ]] && CAST=$binary && break
  done
fi
[[ $AMOUNT =~ ^[1-9][0-9]*$ ]] || fail "AMOUNT must be a positive integer in the token's smallest units, not '$AMOUNT'"
[[ $POLL_SECONDS =~ ^[0-9]*\.?[0-9]+$ ]] || fail "POLL_SECONDS must be a number of seconds, not '$POLL_SECONDS'"
[[ $TIMEOUT_SECONDS =~ ^[0-9]+$ ]] || fail "TIMEOUT_SECONDS must be a whole number of seconds, not '$TIMEOUT_SECONDS'"

# One API call: prints the answer's body on a 2xx; otherwise prints the status and the
# API's error body ({ statusCode, code, message, requestId, details? }) and stops.
api() {
  local method=$1 path=$2 body=${3-} response status
  local args=(-sS --connect-timeout 5 --max-time 60 -X "$method" -H 'accept: application/json' -w '\n%{http_code}')
  [[ -n ${API_KEY:-} ]] && args+=(-H "x-api-key: $API_KEY")
  [[ -n $body ]] && args+=(-H 'content-type: application/json' --data-binary "$body")
  response=$(curl "${args[@]}" "$API_URL$path") || fail "$method $path: no answer from $API_URL (is the platform running?)"
  status=${response##*$'\n'}
  response=${response%$'\n'*}
  if [[ $status != 2* ]]; then
    echo "swap.sh: $method $path answered HTTP $status:" >&2
    jq . <<<"$response" >&2 2>/dev/null || echo "$response" >&2
    exit 1
  fi
  printf '%s' "$response"
}

# Signs with PRIVATE_KEY and sends an EVM transaction { from, to, value, data, chainId? } of
# the API; prints the mined receipt (JSON). Stops if the transaction reverted.
send_tx() {
  local tx=$1 what=$2 receipt chain_id
  chain_id=$(jq -r '.chainId // empty' <<<"$tx")
  chain_id=${chain_id:-$SRC_CHAIN_ID}
  [[ $(jq -r '.from | ascii_downcase' <<<"$tx") == "${WALLET,,}" ]] ||
    fail "the $what transaction is from $(jq -r .from <<<"$tx"), not this wallet ($WALLET)"
  receipt=$("$CAST" send --json --rpc-url "$RPC_URL" --chain "$chain_id" --private-key "$PRIVATE_KEY" \
    --value "$(jq -r .value <<<"$tx")" --data "$(jq -r .data <<<"$tx")" "$(jq -r .to <<<"$tx")") || receipt=''
  jq -e .transactionHash <<<"$receipt" >/dev/null 2>&1 || fail "cast could not send the $what transaction to $RPC_URL (chain id $chain_id)"
  [[ $(jq -r .status <<<"$receipt") == 0x1 ]] || fail "the $what transaction reverted: $(jq -r .transactionHash <<<"$receipt")"
  printf '%s' "$receipt"
}

units() { "$CAST" format-units "$1" "$2" | sed -E '/\./ s/\.?0+$//'; }

# The source chain: its RPC (RPC_URL, or the devnet's from the chain profile) and its EVM
# chain id (the hex before the dot of the chain key: 0xa4b1.arbitrum → 42161).
if [[ -z ${RPC_URL:-} ]]; then
  [[ -r $CHAIN_PROFILE ]] || fail "no RPC_URL for $SRC_CHAIN: set RPC_URL, or CHAIN_PROFILE to a chain profile ($CHAIN_PROFILE is not readable; npm start writes it)"
  RPC_URL=$(jq -r --arg key "$SRC_CHAIN" '.chains[] | select(.key == $key) | .rpcUrls[0] // empty' "$CHAIN_PROFILE")
  [[ -n $RPC_URL ]] || fail "$CHAIN_PROFILE has no RPC URL for $SRC_CHAIN: set RPC_URL"
fi
[[ $SRC_CHAIN =~ ^0x([0-9a-fA-F]+)\. ]] || fail "SRC_CHAIN $SRC_CHAIN is not an EVM chain key (0x<chain id>.<name>): this script signs EVM transactions only"
SRC_CHAIN_ID=$((16#${BASH_REMATCH[1]}))
WALLET=$("$CAST" wallet address --private-key "$PRIVATE_KEY") || WALLET=''
[[ $WALLET =~ ^0x[0-9a-fA-F]{40}$ ]] || fail "PRIVATE_KEY is not a private key (0x and 64 hex digits)"
echo "wallet $WALLET, API $API_URL, $SRC_CHAIN RPC $RPC_URL"

# 1. The two tokens, by symbol, from the chains' token lists.
find_token() {
  local chain=$1 symbol=$2 tokens token
  tokens=$(api GET "/v1/swaps/tokens/$chain")
  token=$(jq -c --arg s "$symbol" 'first(.[] | select((.symbol | ascii_downcase) == ($s | ascii_downcase))) // empty' <<<"$tokens")
  [[ -n $token ]] || fail "$chain has no $symbol (it has $(jq -r 'map(.symbol) | join(", ")' <<<"$tokens"))"
  printf '%s' "$token"
}
token_in=$(find_token "$SRC_CHAIN" "$TOKEN_IN")
token_out=$(find_token "$DST_CHAIN" "$TOKEN_OUT")
in_address=$(jq -r .address <<<"$token_in")
in_decimals=$(jq -r .decimals <<<"$token_in")
out_address=$(jq -r .address <<<"$token_out")
out_decimals=$(jq -r .decimals <<<"$token_out")
echo "1. tokens    $TOKEN_IN on $SRC_CHAIN is $in_address, $TOKEN_OUT on $DST_CHAIN is $out_address"

# 2. The quote, with the unsigned transaction that takes it (txData: { tx, intent, relayData }).
# The intent's minOutputAmount is in hub-asset units, which have the token's decimals on
# every listed token today.
quote_request=$(jq -nc --arg src "$SRC_CHAIN" --arg dst "$DST_CHAIN" --arg in "$in_address" --arg out "$out_address" \
  --arg amount "$AMOUNT" --arg wallet "$WALLET" \
  '{ tokenSrc: $in, tokenSrcChainKey: $src, tokenDst: $out, tokenDstChainKey: $dst, amount: $amount,
     quoteType: "exact_input", srcAddress: $wallet, dstAddress: $wallet }')
quote=$(api POST '/v1/swaps/quote?includeTxData=true' "$quote_request")
built=$(jq -c .txData <<<"$quote")
echo "2. quote     $(units "$AMOUNT" "$in_decimals") $TOKEN_IN → $(units "$(jq -r .quotedAmount <<<"$quote")" "$out_decimals") $TOKEN_OUT" \
  "(at least $(units "$(jq -r .intent.minOutputAmount <<<"$built")" "$out_decimals"); quote $(jq -r .quoteId <<<"$quote"), expires $(jq -r .expiresAt <<<"$quote"))"

# 3. The allowance: /allowance/check and /approve take the /intents body: the quote's request
# renamed plus the intent's terms (only the input side matters to an approval; the rest must
# merely be valid). A native input answers approvalRequired: false.
intent_request=$(jq -c --argjson q "$quote_request" \
  '{ srcChainKey: $q.tokenSrcChainKey, dstChainKey: $q.tokenDstChainKey, inputToken: $q.tokenSrc, outputToken: $q.tokenDst,
     inputAmount: $q.amount, minOutputAmount: .intent.minOutputAmount, deadline: .intent.deadline,
     allowPartialFill: .intent.allowPartialFill, srcAddress: $q.srcAddress, dstAddress: $q.dstAddress,
     solver: .intent.solver, data: .intent.data }' <<<"$built")
allowance=$(api POST /v1/swaps/allowance/check "$intent_request")
if [[ $(jq -r .approvalRequired <<<"$allowance") != true ]]; then
  echo "3. allowance not needed (native input)"
elif [[ $(jq -r .valid <<<"$allowance") == true ]]; then
  echo "3. allowance enough already: $(jq -r .spender <<<"$allowance") may move $(jq -r .allowance <<<"$allowance") ≥ $AMOUNT"
else
  approval=$(api POST /v1/swaps/approve "$intent_request")
  approved=$(send_tx "$(jq -c .tx <<<"$approval")" approve)
  echo "3. allowance approved $AMOUNT for $(jq -r .spender <<<"$allowance") in $(jq -r .transactionHash <<<"$approved")"
fi

# 4. Sign the swap's transaction locally and send it to the source chain.
receipt=$(send_tx "$(jq -c .tx <<<"$built")" swap)
tx_hash=$(jq -r .transactionHash <<<"$receipt")
echo "4. sent      $tx_hash, mined in block $(($(jq -r .blockNumber <<<"$receipt"))) of $SRC_CHAIN"

# 5. Submit it: the intent verbatim from the build, relayData its payload.
submission=$(jq -c --arg hash "$tx_hash" --arg src "$SRC_CHAIN" --arg wallet "$WALLET" \
  '{ txHash: $hash, srcChainKey: $src, walletAddress: $wallet, intent: .intent, relayData: .relayData.payload }' <<<"$built")
submitted=$(api POST /v1/swaps/submit-tx "$submission")
echo "5. submitted $(jq -r .data.status <<<"$submitted"); polling the status every $POLL_SECONDS s for up to $TIMEOUT_SECONDS s"

# 6. Poll until terminal, printing each step of the history once, as it appears.
deadline=$((SECONDS + TIMEOUT_SECONDS))
shown=0
while :; do
  status=$(api GET "/v1/swaps/submit-tx/status?txHash=$tx_hash&srcChainKey=$SRC_CHAIN")
  jq -r --argjson from "$shown" '.data.history[$from:][] | "   \(.status | . + " " * (17 - length)) \(.at)  \(.detail)"' <<<"$status"
  shown=$(jq '.data.history | length' <<<"$status")
  case $(jq -r .data.status <<<"$status") in
    solved)
      echo "6. solved    $(jq -r '.data.result | "hub \(.hubTxHash), fill \(.fillTxHash)" + (if .deliveryTxHash then ", delivered \(.deliveryTxHash)" else "" end)' <<<"$status")"
      exit 0
      ;;
    failed)
      echo "6. failed    at $(jq -r '.data | "\(.failedAtStep): \(.userMessage // "no message")"' <<<"$status")"
      exit 1
      ;;
  esac
  if ((SECONDS >= deadline)); then
    echo "6. waiting   still $(jq -r .data.status <<<"$status") after $TIMEOUT_SECONDS s; poll again later (the status is kept)" >&2
    exit 2
  fi
  sleep "$POLL_SECONDS"
done
