// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./IntentTypes.sol";
import "./HubWalletFactory.sol";
import "./Spoke.sol";

interface IMintable {
    function mint(address to, uint256 amount) external;
}

/// Where the relayer lands spoke messages on the hub, and where hub assets leave for their
/// spoke (tools/devnet/CONTRACTS.md). A deposit from a spoke's asset manager mints the hub
/// asset to the hub wallet of the depositor the asset manager saw (never of a user-written
/// field) and runs the deposit's hub calls from it; any other sender's message runs its
/// calls from that sender's own hub wallet. Each (source chain, sequence number) once.
contract HubEntry {
    address public immutable owner;
    address public immutable relayer;
    uint256 public immutable hubChainId;
    HubWalletFactory public factory;
    Connection public connection;
    mapping(uint256 => address) public assetManagerOf;
    mapping(uint256 => mapping(address => address)) public hubAssetOf;
    mapping(address => uint256) public chainOf;
    mapping(address => address) public spokeTokenOf;
    mapping(uint256 => mapping(uint256 => bool)) public processed;

    event MessageReceived(uint256 indexed srcChainId, uint256 indexed connSn, address wallet, bool callsSucceeded);
    event Withdrawn(address indexed hubAsset, uint256 dstChain, address to, uint256 amount);

    error Unauthorized();
    error MessageAlreadyProcessed();
    error UnknownAsset();
    error InvalidReceiver();
    error TransferFailed();

    constructor(address relayer_, uint256 hubChainId_) {
        owner = msg.sender;
        relayer = relayer_;
        hubChainId = hubChainId_;
    }

    function configure(HubWalletFactory factory_, Connection connection_) external {
        if (msg.sender != owner || address(factory) != address(0)) revert Unauthorized();
        factory = factory_;
        connection = connection_;
    }

    function addSpoke(uint256 chainId, address assetManager) external {
        if (msg.sender != owner) revert Unauthorized();
        assetManagerOf[chainId] = assetManager;
    }

    function addAsset(uint256 chainId, address spokeToken, address hubAsset) external {
        if (msg.sender != owner) revert Unauthorized();
        hubAssetOf[chainId][spokeToken] = hubAsset;
        chainOf[hubAsset] = chainId;
        spokeTokenOf[hubAsset] = spokeToken;
    }

    function recvMessage(uint256 srcChainId, address srcAddress, uint256 connSn, bytes calldata payload) external {
        if (msg.sender != relayer) revert Unauthorized();
        if (processed[srcChainId][connSn]) revert MessageAlreadyProcessed();
        processed[srcChainId][connSn] = true;
        address manager = assetManagerOf[srcChainId];
        (bytes memory user, bytes memory calls) = manager != address(0) && srcAddress == manager ? _credit(srcChainId, payload) : (abi.encodePacked(srcAddress), payload);
        address wallet = factory.deploy(srcChainId, user);
        // A deposit is credited even when its calls fail (a deadline passed on the way, say):
        // the asset waits in the user's hub wallet, and the event says the calls failed.
        bool ok = true;
        if (calls.length > 0) {
            try factory.execute(srcChainId, user, calls) {} catch {
                ok = false;
            }
        }
        emit MessageReceived(srcChainId, connSn, wallet, ok);
    }

    /// A deposit `(token, from, to, amount, data)`: the hub asset minted to `from`'s hub wallet.
    function _credit(uint256 srcChainId, bytes calldata payload) private returns (bytes memory user, bytes memory calls) {
        (address token, address from, , uint256 amount, bytes memory data) = abi.decode(payload, (address, address, bytes, uint256, bytes));
        address asset = hubAssetOf[srcChainId][token];
        if (asset == address(0)) revert UnknownAsset();
        user = abi.encodePacked(from);
        IMintable(asset).mint(factory.deploy(srcChainId, user), amount);
        calls = data;
    }

    /// Sends a hub asset back to its spoke: taken from the caller here, released there.
    function withdrawTo(address hubAsset, uint256 dstChain, bytes calldata to, uint256 amount) external {
        if (chainOf[hubAsset] != dstChain || dstChain == 0) revert UnknownAsset();
        if (to.length != 20) revert InvalidReceiver();
        if (!IERC20(hubAsset).transferFrom(msg.sender, address(this), amount)) revert TransferFailed();
        address receiver = address(bytes20(to));
        connection.sendMessage(dstChain, abi.encodePacked(assetManagerOf[dstChain]), abi.encode(spokeTokenOf[hubAsset], receiver, amount));
        emit Withdrawn(hubAsset, dstChain, receiver, amount);
    }
}
