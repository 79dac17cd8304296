// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./IntentTypes.sol";

/// The hub's intents contract: creating, cancelling and filling intents, with the
/// protocol's selectors and events. Minimal, for the devnet: one fill per intent.
contract Intents {
    enum State { None, Open, Cancelled, Filled }

    mapping(bytes32 => State) public states;

    event IntentCreated(bytes32 intentHash, Intent intent);
    event IntentCancelled(bytes32 intentHash);
    event IntentFilled(bytes32 intentHash, uint256 inputAmount, uint256 outputAmount, uint256 externalFillId, address solver);

    /// Takes `inputAmount` of the input from the creator (and the partner fee, paid to its
    /// receiver, when `data` is 0x01 ‖ abi.encode(fee, receiver)) and opens the intent.
    function createIntent(Intent calldata intent) external {
        require(intent.creator == msg.sender, "Intents: creator must be the sender");
        require(intent.deadline == 0 || intent.deadline > block.timestamp, "Intents: deadline passed");
        bytes32 intentHash = keccak256(abi.encode(intent));
        require(states[intentHash] == State.None, "Intents: intent exists");
        states[intentHash] = State.Open;
        require(IERC20(intent.inputToken).transferFrom(msg.sender, address(this), intent.inputAmount), "Intents: input transfer failed");
        if (intent.data.length > 0 && intent.data[0] == 0x01) {
            (uint256 fee, address receiver) = abi.decode(intent.data[1:], (uint256, address));
            if (fee > 0) require(IERC20(intent.inputToken).transferFrom(msg.sender, receiver, fee), "Intents: fee transfer failed");
        }
        emit IntentCreated(intentHash, intent);
    }

    /// The creator takes back the input of an intent still open.
    function cancelIntent(Intent calldata intent) external {
        require(intent.creator == msg.sender, "Intents: only the creator cancels");
        bytes32 intentHash = keccak256(abi.encode(intent));
        require(states[intentHash] == State.Open, "Intents: intent not open");
        states[intentHash] = State.Cancelled;
        require(IERC20(intent.inputToken).transfer(intent.creator, intent.inputAmount), "Intents: refund failed");
        emit IntentCancelled(intentHash);
    }

    /// A solver pays at least the minimum output to the receiver and takes the input.
    function fillIntent(Intent calldata intent, uint256 inputAmount, uint256 outputAmount, uint256 externalFillId) external {
        bytes32 intentHash = keccak256(abi.encode(intent));
        require(states[intentHash] == State.Open, "Intents: intent not open");
        require(intent.solver == address(0) || intent.solver == msg.sender, "Intents: not the chosen solver");
        require(intent.deadline == 0 || intent.deadline >= block.timestamp, "Intents: deadline passed");
        require(inputAmount == intent.inputAmount, "Intents: partial fills are not supported here");
        require(outputAmount >= intent.minOutputAmount, "Intents: output below the minimum");
        require(intent.dstAddress.length == 20, "Intents: receiver must be a hub address");
        states[intentHash] = State.Filled;
        address receiver = address(bytes20(intent.dstAddress));
        require(IERC20(intent.outputToken).transferFrom(msg.sender, receiver, outputAmount), "Intents: output transfer failed");
        require(IERC20(intent.inputToken).transfer(msg.sender, inputAmount), "Intents: input transfer failed");
        emit IntentFilled(intentHash, inputAmount, outputAmount, externalFillId, msg.sender);
    }
}
