// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A user's wallet on the hub: it runs the calls its factory relays for it.
contract HubWallet {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    address public immutable factory;

    constructor() {
        factory = msg.sender;
    }

    function execute(Call[] calldata calls) external payable {
        require(msg.sender == factory, "HubWallet: only the factory");
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory result) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
        }
    }

    receive() external payable {}
}

/// Derives and deploys one hub wallet per (relay chain id, spoke address) with CREATE2,
/// and runs the hub calls a spoke message carries from that wallet, for the hub entry only.
contract HubWalletFactory {
    /// The hub entry (HubEntry), the one caller of execute.
    address public immutable relayer;

    event WalletDeployed(uint256 indexed chainId, bytes user, address wallet);

    constructor(address relayer_) {
        relayer = relayer_;
    }

    function salt(uint256 chainId, bytes calldata user) public pure returns (bytes32) {
        return keccak256(abi.encode(chainId, user));
    }

    function getDeployedAddress(uint256 chainId, bytes calldata user) public view returns (address) {
        bytes32 codeHash = keccak256(type(HubWallet).creationCode);
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt(chainId, user), codeHash)))));
    }

    function deploy(uint256 chainId, bytes calldata user) public returns (address wallet) {
        wallet = getDeployedAddress(chainId, user);
        if (wallet.code.length == 0) {
            wallet = address(new HubWallet{salt: salt(chainId, user)}());
            emit WalletDeployed(chainId, user, wallet);
        }
    }

    /// The hub entry runs a spoke message's hub calls, `abi.encode((address,uint256,bytes)[])`.
    function execute(uint256 chainId, bytes calldata user, bytes calldata calls) external payable {
        require(msg.sender == relayer, "HubWalletFactory: only the hub entry");
        address wallet = deploy(chainId, user);
        HubWallet(payable(wallet)).execute{value: msg.value}(abi.decode(calls, (HubWallet.Call[])));
    }
}
