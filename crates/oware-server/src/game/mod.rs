//! A game as the server keeps it, without storage or connections: how it is set up and the view
//! clients get ([`model`]), its clock ([`clock`]), and the ids and tokens that name games and
//! seats ([`ids`]).

pub(crate) mod clock;
pub(crate) mod ids;
pub(crate) mod model;
