// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./IntentTypes.sol";

/// The hub's intents contract for the devnet: creating, cancelling and filling intents with
/// the protocol's selectors, events and errors (shared/reference/protocol-facts.md and the
/// public client's ABI). One fill per intent (partial fills are refused). A fill pays the
/// solver the input at once; the output goes to the receiver on the hub, or, for a spoke
/// destination, leaves through the hub entry for the relay to deliver there (a pending
/// payment until then; tools/devnet/CONTRACTS.md).
interface IHubEntry {
    function withdrawTo(address hubAsset, uint256 dstChain, bytes calldata to, uint256 amount) external;
}

contract Intents {
    struct IntentState {
        bool exists;
        uint256 remainingInput;
        uint256 receivedOutput;
        bool pendingPayment;
    }

    /// Relay chain id of the hub: outputs of intents bound elsewhere wait for delivery.
    uint256 public immutable hubChainId;
    IHubEntry public immutable hubEntry;
    mapping(bytes32 => IntentState) public intentStates;

    event IntentCreated(bytes32 intentHash, Intent intent);
    event IntentCancelled(bytes32 intentHash);
    event IntentFilled(bytes32 intentHash, IntentState intentState);
    /// A filled intent's output on its way to its destination spoke (the relay's job).
    event DeliveryRequested(bytes32 indexed intentHash, uint256 dstChain, bytes dstAddress, address token, uint256 amount);

    error IntentAlreadyExists();
    error IntentNotFound();
    error Unauthorized();
    error InvalidSolver();
    error PartialFillNotAllowed();
    error InvalidAmount();
    error IntentExpired();
    error InvalidReceiver();
    error TransferFailed();

    constructor(uint256 hubChainId_, IHubEntry hubEntry_) {
        hubChainId = hubChainId_;
        hubEntry = hubEntry_;
    }

    /// Takes `inputAmount` of the input from the creator (and the partner fee, paid to its
    /// receiver, when `data` is 0x01 ‖ abi.encode(fee, receiver)) and opens the intent.
    function createIntent(Intent calldata intent) external {
        if (intent.creator != msg.sender) revert Unauthorized();
        if (intent.deadline != 0 && intent.deadline <= block.timestamp) revert IntentExpired();
        if (intent.inputAmount == 0) revert InvalidAmount();
        bytes32 intentHash = keccak256(abi.encode(intent));
        if (intentStates[intentHash].exists || intentStates[intentHash].receivedOutput > 0) revert IntentAlreadyExists();
        intentStates[intentHash] = IntentState(true, intent.inputAmount, 0, false);
        _pull(intent.inputToken, msg.sender, address(this), intent.inputAmount);
        if (intent.data.length > 0 && intent.data[0] == 0x01) {
            (uint256 fee, address receiver) = abi.decode(intent.data[1:], (uint256, address));
            if (fee > 0) _pull(intent.inputToken, msg.sender, receiver, fee);
        }
        emit IntentCreated(intentHash, intent);
    }

    /// The creator takes back the input of an intent still open.
    function cancelIntent(Intent calldata intent) external {
        if (intent.creator != msg.sender) revert Unauthorized();
        bytes32 intentHash = keccak256(abi.encode(intent));
        IntentState storage state = intentStates[intentHash];
        if (!state.exists) revert IntentNotFound();
        uint256 refund = state.remainingInput;
        state.exists = false;
        state.remainingInput = 0;
        if (!IERC20(intent.inputToken).transfer(intent.creator, refund)) revert TransferFailed();
        emit IntentCancelled(intentHash);
    }

    /// A solver pays at least the minimum output and takes the whole input.
    function fillIntent(Intent calldata intent, uint256 _inputAmount, uint256 _outputAmount, uint256 _externalFillId) external {
        _externalFillId; // fills made on another chain are not modelled on the devnet
        bytes32 intentHash = keccak256(abi.encode(intent));
        IntentState storage state = intentStates[intentHash];
        if (!state.exists) revert IntentNotFound();
        if (intent.solver != address(0) && intent.solver != msg.sender) revert InvalidSolver();
        if (intent.deadline != 0 && intent.deadline < block.timestamp) revert IntentExpired();
        if (_inputAmount != state.remainingInput) revert PartialFillNotAllowed();
        if (_outputAmount < intent.minOutputAmount || _outputAmount == 0) revert InvalidAmount();
        state.exists = false;
        state.remainingInput = 0;
        state.receivedOutput = _outputAmount;
        if (intent.dstChain == hubChainId) {
            if (intent.dstAddress.length != 20) revert InvalidReceiver();
            _pull(intent.outputToken, msg.sender, address(bytes20(intent.dstAddress)), _outputAmount);
        } else {
            state.pendingPayment = true;
            _pull(intent.outputToken, msg.sender, address(this), _outputAmount);
            if (!IERC20(intent.outputToken).approve(address(hubEntry), _outputAmount)) revert TransferFailed();
            hubEntry.withdrawTo(intent.outputToken, intent.dstChain, intent.dstAddress, _outputAmount);
            emit DeliveryRequested(intentHash, intent.dstChain, intent.dstAddress, intent.outputToken, _outputAmount);
        }
        if (!IERC20(intent.inputToken).transfer(msg.sender, _inputAmount)) revert TransferFailed();
        emit IntentFilled(intentHash, state);
    }

    function _pull(address token, address from, address to, uint256 amount) private {
        if (!IERC20(token).transferFrom(from, to, amount)) revert TransferFailed();
    }
}
