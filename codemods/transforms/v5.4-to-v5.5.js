'use strict';
// ergraph-migrate's v5.4-to-v5.5 step as a jscodeshift transform (step.js says how it runs).
module.exports = require('./step.js')('v5.4-to-v5.5');
